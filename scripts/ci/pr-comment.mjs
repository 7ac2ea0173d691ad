#!/usr/bin/env node
// Posts the `appset diff --format markdown` report as a pull/merge request comment, or updates the
// comment it posted before (found by the marker line the report starts with), so a pull request
// carries one up-to-date comment instead of one per push.
//   node scripts/ci/pr-comment.mjs github <file>   (GITHUB_TOKEN, GITHUB_REPOSITORY, GITHUB_EVENT_PATH, GITHUB_API_URL)
//   node scripts/ci/pr-comment.mjs gitlab <file>   (APPSET_GITLAB_TOKEN, CI_API_V4_URL, CI_PROJECT_ID, CI_MERGE_REQUEST_IID)
// Exit 0 when posted or updated (or nothing to comment on, or the token may not comment: a warning in
// the log, since pull requests from forks and Dependabot get a read-only token and the report is in
// the job summary and artifact anyway), 1 on another API error, 2 on bad usage.
import { readFileSync } from 'node:fs';

const MARKER = '<!-- appset-tools:diff -->';
/** GitHub refuses comments over 65,536 characters; GitLab's limit is higher. */
const MAX_BODY = 65000;
const MAX_PAGES = 20;

const [platform, file] = process.argv.slice(2);
if (!['github', 'gitlab'].includes(platform) || !file) {
  console.error('usage: pr-comment.mjs github|gitlab <markdown file>');
  process.exit(2);
}
let body = readFileSync(file, 'utf8');
if (!body.includes(MARKER)) body = `${MARKER}\n${body}`;
// `appset diff --format markdown` already fits (it cuts details, not the summary); this is the last
// guard for any other file: cut at a line, close the folds left open, and say so outside them.
if (body.length > MAX_BODY) {
  let cut = body.slice(0, MAX_BODY - 500);
  cut = cut.slice(0, Math.max(0, cut.lastIndexOf('\n')));
  const open = (cut.match(/<details>/g) ?? []).length - (cut.match(/<\/details>/g) ?? []).length;
  body =
    cut +
    '\n\n</details>'.repeat(Math.max(0, open)) +
    '\n\n> ✂️ **This comment is cut at 65,000 characters.** The full report is the job artifact and the job summary.\n';
}

const env = process.env;
async function api(method, url, headers, payload) {
  const r = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: payload ? JSON.stringify(payload) : undefined,
  });
  if (!r.ok) throw Object.assign(new Error(`${method} ${url}: HTTP ${r.status} ${(await r.text()).slice(0, 300)}`), { status: r.status });
  return r.status === 204 ? null : r.json();
}

async function github() {
  const token = env.GITHUB_TOKEN;
  const repo = env.GITHUB_REPOSITORY;
  const apiUrl = (env.GITHUB_API_URL || 'https://api.github.com').replace(/\/$/, '');
  let number = env.APPSET_PR_NUMBER;
  if (!number && env.GITHUB_EVENT_PATH) {
    const ev = JSON.parse(readFileSync(env.GITHUB_EVENT_PATH, 'utf8'));
    number = ev.pull_request?.number ?? ev.issue?.number;
  }
  if (!number) return console.log('pr-comment: not a pull request event; no comment posted');
  if (!token || !repo) throw new Error('GITHUB_TOKEN and GITHUB_REPOSITORY are required');
  const h = { authorization: `Bearer ${token}`, accept: 'application/vnd.github+json', 'x-github-api-version': '2022-11-28' };
  let existing;
  for (let page = 1; page <= MAX_PAGES && !existing; page++) {
    const list = await api('GET', `${apiUrl}/repos/${repo}/issues/${number}/comments?per_page=100&page=${page}`, h);
    existing = list.find((c) => typeof c.body === 'string' && c.body.includes(MARKER));
    if (list.length < 100) break;
  }
  if (existing) {
    await api('PATCH', `${apiUrl}/repos/${repo}/issues/comments/${existing.id}`, h, { body });
    console.log(`pr-comment: updated comment ${existing.id} on #${number}`);
  } else {
    const c = await api('POST', `${apiUrl}/repos/${repo}/issues/${number}/comments`, h, { body });
    console.log(`pr-comment: posted comment ${c.id} on #${number}`);
  }
}

async function gitlab() {
  const token = env.APPSET_GITLAB_TOKEN;
  const apiUrl = (env.CI_API_V4_URL || '').replace(/\/$/, '');
  const project = env.CI_PROJECT_ID;
  const mr = env.CI_MERGE_REQUEST_IID;
  if (!mr) return console.log('pr-comment: not a merge request pipeline; no comment posted');
  if (!token) return console.log('pr-comment: APPSET_GITLAB_TOKEN is not set; no comment posted (the report is in the job artifacts)');
  if (!apiUrl || !project) throw new Error('CI_API_V4_URL and CI_PROJECT_ID are required');
  const h = { 'private-token': token };
  const base = `${apiUrl}/projects/${encodeURIComponent(project)}/merge_requests/${mr}/notes`;
  let existing;
  for (let page = 1; page <= MAX_PAGES && !existing; page++) {
    const list = await api('GET', `${base}?per_page=100&page=${page}`, h);
    existing = list.find((n) => typeof n.body === 'string' && n.body.includes(MARKER));
    if (list.length < 100) break;
  }
  if (existing) {
    await api('PUT', `${base}/${existing.id}`, h, { body });
    console.log(`pr-comment: updated note ${existing.id} on !${mr}`);
  } else {
    const n = await api('POST', base, h, { body });
    console.log(`pr-comment: posted note ${n.id} on !${mr}`);
  }
}

/** HTTP statuses that mean "this token may not comment here" rather than a failure. */
const REFUSED = new Set([401, 403]);

(platform === 'github' ? github() : gitlab()).catch((e) => {
  if (REFUSED.has(e.status)) {
    const why =
      platform === 'github'
        ? 'the token may not comment on this pull request (pull requests from forks and Dependabot get a read-only token; give the job `pull-requests: write`, or set `comment: false`)'
        : 'APPSET_GITLAB_TOKEN may not post notes on this merge request (it needs the `api` scope and at least the Reporter role)';
    const text = `appset-tools: no comment posted: ${why}; the report is in the job summary and the job artifact (HTTP ${e.status})`;
    // A workflow command makes it a warning annotation on the run; GitLab shows the line as it is.
    console.log(platform === 'github' ? `::warning title=appset-tools comment not posted::${text}` : `WARNING: ${text}`);
    return;
  }
  console.error(`pr-comment: ${e.message}`);
  process.exit(1);
});
