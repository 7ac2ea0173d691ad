/**
 * ApplicationSet files that another tool fills in before anything applies them: project scaffolds
 * (`{{PROJECT_NAME}}`, cookiecutter's `{{cookiecutter.name}}`, Jinja `{% if %}`), shell or envsubst
 * variables (`$name`, `${NAMESPACE}`). Decided from what Argo CD would do with the file as written:
 * - Argo CD never templates an ApplicationSet's own `metadata` (only `spec.template`, its
 *   `templatePatch` and generators' templates: applicationset/controllers/applicationset_controller.go
 *   renders `applicationSetInfo.Spec.Template`), and Kubernetes rejects a name holding `{`, `$` or `%`
 *   (RFC 1123). A placeholder there is another tool's, which renders the file first.
 * - Argo CD's templates are `{{ }}` only (fasttemplate or text/template); `$` is expanded only in its
 *   build environment (`$ARGOCD_APP_NAME`… in tool arguments and plugin env, util/app/path and
 *   reposerver's `newEnv`), and `$values` is a multi-source reference in value files. A name, project,
 *   or namespace that is a shell variable stays literal and is rejected (neither a Kubernetes name nor
 *   an AppProject name can be `$name`), so the file is another tool's template.
 * - Jinja statements (`{% … %}`) and `cookiecutter.` variables are no syntax Argo CD reads.
 * A bare upper-case word as the ApplicationSet's own name or namespace (`APPLICATION_NAME`,
 * `DEPARTMENT-SYSTEM`) is the placeholder a `sed -i s/APPLICATION_NAME/…/` or envsubst step replaces
 * (`sedPlaceholder`): the API server validates a custom resource's `metadata.name` as a DNS subdomain
 * (apimachinery `ValidateObjectMeta`, used by apiextensions-apiserver for every custom resource), so the
 * file as written is never created. The rest of such a file is YAML as Argo CD will read it (a word
 * replaced by sed changes nothing around it), so it is still checked; only what the placeholders decide
 * (an Application name made of them) is not called invalid (generators/generatedApps.ts).
 * Such a file gets the one `yaml/templated-file` note (yaml/templatedFile.ts), not findings about text
 * that will not be there once it is rendered.
 */
import { isTrimmed } from '../yaml';

export interface Scaffold {
  /** Which tool renders the file, in words. */
  name: string;
  /** The text that says so. */
  snippet: string;
}

const COOKIECUTTER = /\{\{-?\s*cookiecutter\.[A-Za-z_]/;
/** A Jinja statement on one line (bounded, so the search stays linear). */
const JINJA = /\{%-?\s*(?:if|elif|else|endif|for|endfor|raw|endraw|set|macro|endmacro|include|import|block|endblock)\b[^\n]{0,200}?%\}/;
/** A Go template action. */
const GO_ACTION = /\{\{-?\s*[.$]/;
/** A placeholder Kubernetes would reject in a name and Argo CD does not fill in its own metadata. */
const PLACEHOLDER = /\{\{|\$\{|\$[A-Za-z_]|<%|%\{|\[\[/;
/** A whole value in upper case (`APPLICATION_NAME`, `DEPARTMENT-SYSTEM`): a sed or envsubst placeholder. */
const UPPER_WORD = /^[A-Z][A-Z0-9]*(?:[_-][A-Z0-9]+)*$/;

/**
 * The ApplicationSet's own name or namespace when it is an upper-case placeholder (see the header):
 * the file is a sed/envsubst scaffold whose placeholders are filled in before anything applies it.
 */
export function sedPlaceholder(own: { name?: string; namespace?: string }): string | undefined {
  return [own.name, own.namespace].find((v) => typeof v === 'string' && UPPER_WORD.test(v) && /[A-Z].*[A-Z]/.test(v));
}
/**
 * Keys whose literal text cannot hold a `$` for Argo CD: names, projects and namespaces. (A placeholder
 * repoURL has its own note, generator/placeholder-repo.)
 */
const LITERAL_KEYS = /^(\s*(?:-\s+)?)(name|namespace|project):[ \t]+(\S.*?)\s*(?:#.*)?$/;

export function scaffoldOf(text: string): Scaffold | undefined {
  // Each pattern runs only on a text holding its literal part (found by a native search): most texts hold
  // neither, and each pattern was compiled and run over the whole text in every fresh process (issue 39).
  const cc = text.includes('cookiecutter.') ? COOKIECUTTER.exec(text) : null;
  if (cc) return { name: 'cookiecutter', snippet: line(text, cc.index) };
  const jinja = text.includes('{%') ? JINJA.exec(text) : null;
  if (jinja) return { name: 'a Jinja template tool (cookiecutter, copier, Ansible)', snippet: jinja[0] };
  return scanLines(text);
}

function scanLines(text: string): Scaffold | undefined {
  /** Indentation of the key whose block scalar (`|`, `>`) is being skipped; -1: none. */
  let blockIndent = -1;
  /** Inside the top-level `metadata:` of a document: the ApplicationSet's own metadata. */
  let ownMetadata = false;
  // The lines are walked in place, not split: this runs on every keystroke of an ApplicationSet, and a
  // copy of each line of a 111 KiB list was a tenth of a keystroke's garbage. Most lines need no more
  // than their first character: the next `|` or `>` and the next of each key LITERAL_KEYS names are
  // kept (each found once, in the text's order), and only a line that holds one is looked at closer.
  const next = { bar: -2, name: -2, namespace: -2, project: -2, line: -2 };
  for (let from = 0; from <= text.length;) {
    if (blockIndent < 0) {
      from = nextLineThatMatters(text, from, next);
      if (from > text.length) break;
    }
    const start = from;
    const nl = text.indexOf('\n', start);
    const stop = nl < 0 ? text.length : nl;
    from = stop + 1;
    // The line without its `\n`, and without one `\r` before it.
    const end = stop > start && text.charCodeAt(stop - 1) === 13 ? stop - 1 : stop;
    let first = -1;
    if (blockIndent >= 0) {
      first = firstNonSpace(text, start, end);
      if (first === end || first - start > blockIndent) continue;
      blockIndent = -1;
    }
    if (next.bar !== -1 && next.bar < start) next.bar = nextBar(text, start);
    if (next.bar >= 0 && next.bar < end && BLOCK_HEADER.test(text.slice(start, end))) {
      if (first < 0) first = firstNonSpace(text, start, end);
      blockIndent = first - start;
    }
    // A line at column 0 that is not blank.
    if (start < end && !isTrimmed(text.charCodeAt(start))) ownMetadata = isMetadataLine(text, start, end);
    if (!holdsKey(text, start, end, next)) continue;
    if (first < 0) first = firstNonSpace(text, start, end);
    if (!mayBeLiteralKey(text, first, end)) continue;
    const whole = text.slice(start, end);
    // What follows can only find a `$` variable, or in the own metadata another placeholder: a line with
    // neither marker is passed without its patterns (none of them runs on the bench's files: each is
    // compiled in every fresh process at its first use, issue 39).
    if (!whole.includes('$') && !(ownMetadata && mayHoldPlaceholder(whole))) continue;
    const m = LITERAL_KEYS.exec(whole);
    if (!m) continue;
    const [line, , key, value] = m;
    // Go template actions (`{{ $c.name }}`, `{{ .x }}`) are left to the Go-template checks (control flow
    // around the documents has its own note).
    if (ownMetadata && (key === 'name' || key === 'namespace') && PLACEHOLDER.test(value) && !GO_ACTION.test(value))
      return { name: 'a scaffolding or substitution tool', snippet: line.trim() };
    const v = shellVariable(value);
    if (v && !v.startsWith('ARGOCD_')) return { name: 'a shell or envsubst step', snippet: line.trim() };
  }
  return undefined;
}

/** `/^metadata:\s*$/` of the line [start, end): the top-level `metadata:` key with nothing after it. */
function isMetadataLine(text: string, start: number, end: number): boolean {
  if (!text.startsWith('metadata:', start)) return false;
  for (let at = start + 'metadata:'.length; at < end; at++) if (!isTrimmed(text.charCodeAt(at))) return false;
  return true;
}

/** Whether `line` holds one of PLACEHOLDER's markers other than `$` (a necessary condition, see scanLines). */
function mayHoldPlaceholder(line: string): boolean {
  return line.includes('{{') || line.includes('<%') || line.includes('%{') || line.includes('[[');
}

/** A line break before a line that starts with neither a space nor a line break. */
const UNINDENTED_LINE = /\n[^ \n]/g;

/**
 * The start of the first line from the line start `from` on that the scan must look at, outside a block
 * scalar (text.length + 1: none): one holding a `|` or `>`, or one of the keys, or not starting with a
 * space (it may be at column 0). Any other line changes nothing, and a 111 KiB list has a handful of
 * lines that matter among its 3,300: they are found by native searches instead of looking at each line
 * (most of this scan in a fresh process, issue 39). `next.line` keeps the next line found by the last.
 */
function nextLineThatMatters(
  text: string,
  from: number,
  next: { bar: number; name: number; namespace: number; project: number; line: number },
): number {
  if (next.bar !== -1 && next.bar < from) next.bar = nextBar(text, from);
  if (next.name !== -1 && next.name < from) next.name = text.indexOf('name:', from);
  if (next.namespace !== -1 && next.namespace < from) next.namespace = text.indexOf('namespace:', from);
  if (next.project !== -1 && next.project < from) next.project = text.indexOf('project:', from);
  if (next.line !== -1 && next.line < from) {
    const c = text.charCodeAt(from);
    if (from < text.length && c !== 32 && c !== 10) next.line = from;
    else {
      UNINDENTED_LINE.lastIndex = from;
      const m = UNINDENTED_LINE.exec(text);
      next.line = m ? m.index + 1 : -1;
    }
  }
  let target = next.line >= 0 ? next.line : text.length + 1;
  // The four places in turn, not a loop over an array of them: an array and an iterator per line looked at.
  target = earlierLine(text, next.bar, target);
  target = earlierLine(text, next.name, target);
  target = earlierLine(text, next.namespace, target);
  target = earlierLine(text, next.project, target);
  return Math.max(from, target);
}

/** The start of the line holding `at` when `at` is a place (not -1) before `target`; else `target`. */
function earlierLine(text: string, at: number, target: number): number {
  return at >= 0 && at < target ? text.lastIndexOf('\n', at) + 1 : target;
}

/** Whether one of the keys LITERAL_KEYS names is written in [start, end) (moving `next` on to the line). */
function holdsKey(text: string, start: number, end: number, next: { name: number; namespace: number; project: number }): boolean {
  if (next.name !== -1 && next.name < start) next.name = text.indexOf('name:', start);
  if (next.namespace !== -1 && next.namespace < start) next.namespace = text.indexOf('namespace:', start);
  if (next.project !== -1 && next.project < start) next.project = text.indexOf('project:', start);
  return (next.name >= 0 && next.name < end) || (next.namespace >= 0 && next.namespace < end) || (next.project >= 0 && next.project < end);
}

/** The first offset in [start, end) that is not white space `trim()` takes (end when there is none). */
function firstNonSpace(text: string, start: number, end: number): number {
  let at = start;
  while (at < end && isTrimmed(text.charCodeAt(at))) at++;
  return at;
}

const BLOCK_HEADER = /:[ \t]*[|>][-+0-9]*[ \t]*(?:#.*)?$/;

/** The offset of the next `|` or `>` from `from`, or -1. */
function nextBar(text: string, from: number): number {
  const a = text.indexOf('|', from);
  const b = text.indexOf('>', from);
  return a < 0 ? b : b < 0 ? a : Math.min(a, b);
}

/**
 * Whether LITERAL_KEYS can match the line whose first non-space is at `first`: its key, after an
 * optional `- `, starts there (a necessary condition, so that the pattern runs on few lines).
 */
function mayBeLiteralKey(text: string, first: number, end: number): boolean {
  let at = first;
  const c = text.charCodeAt(at);
  // The keys start with `n` or `p`: most lines end here.
  if (c !== 110 /* n */ && c !== 112 /* p */ && c !== 45 /* - */) return false;
  if (c === 45) {
    at++;
    if (at >= end || !isTrimmed(text.charCodeAt(at))) return false;
    while (at < end && isTrimmed(text.charCodeAt(at))) at++;
  }
  return text.startsWith('name:', at) || text.startsWith('namespace:', at) || text.startsWith('project:', at);
}

/** The variable's name when the whole value is `$name` or `${name}` (quoted or not). */
function shellVariable(value: string): string | undefined {
  const m = /^(["']?)\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))\1$/.exec(value);
  return m ? (m[2] ?? m[3]) : undefined;
}

function line(text: string, at: number): string {
  const s = text.lastIndexOf('\n', at) + 1;
  const e = text.indexOf('\n', at);
  return text.slice(s, e < 0 ? text.length : e).trim();
}
