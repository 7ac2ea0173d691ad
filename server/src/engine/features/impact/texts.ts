/**
 * The texts the editor's diff view of a change compares: one side's generated Applications as YAML
 * documents, in the order the controller writes them (by name, Go's string order), written the same
 * way for the baseline and the editor's state so the diff shows only what changed.
 */
import { compareGoStrings } from '../../rules/order';
import { stringifyYaml } from '../../yaml';
import type { SideAppSet } from './diff';

export function appsYaml(side: SideAppSet | undefined, header: string): string {
  const names = side ? [...side.apps.keys()].sort(compareGoStrings) : [];
  const docs = names.map((n) => `---\n${stringifyYaml(side!.apps.get(n)!.app)}`);
  return `# ${header}\n${docs.length ? docs.join('') : '# no Applications\n'}`;
}
