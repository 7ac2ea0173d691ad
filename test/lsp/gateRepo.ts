/**
 * The change gate's repository for the LSP tests (impact-gate*.test.ts): the story's ApplicationSet
 * `text` at `file`, its cluster Secrets, progressive syncs off, `policy.maxChangeAtOnce: 5`, committed
 * as the baseline of a fresh git repository, served by the built server over stdio.
 */
import { execFileSync } from 'node:child_process';
import { startServer, type TestServer } from './client';
import { cmdParamsCm } from '../helpers/clusters';
import { storySecrets } from '../helpers/story';

export async function startGateRepo(file: string, text: string): Promise<TestServer> {
  const s = await startServer({
    [file]: text,
    'clusters/secrets.yaml': storySecrets(),
    'argocd/argocd-cmd-params-cm.yaml': cmdParamsCm('false'),
    '.appset-tools.yaml': 'policy:\n  maxChangeAtOnce: 5\n',
  });
  const git = (...args: string[]) => execFileSync('git', args, { cwd: s.workspace, stdio: 'pipe' });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'base');
  return s;
}
