/**
 * The preview document: every generated Application as multi-document YAML, in the order the
 * controller writes them (sorted by name, `applicationset_controller.go`), with a header that says
 * how exact the preview is.
 */
import * as YAML from 'yaml';
import type { Expansion } from './types';
import { compareGoStrings } from '../rules/order';

export function previewText(appsetName: string, exp: Expansion): string {
  const head: string[] = [
    `# Preview of ApplicationSet "${appsetName}": ${exp.apps.length} Application${exp.apps.length === 1 ? '' : 's'}`,
    '# Generated offline by ApplicationSet Tools; read-only, updates as you edit.',
  ];
  if (!exp.exact) head.push('# NOT EXACT: the controller may produce something different (see notes below).');
  if (exp.capped) head.push('# STOPPED at the appsetTools.maxApplications cap: only the first Applications are shown.');
  for (const n of exp.notes) head.push(`# note: ${n}`);
  for (const p of exp.problems) if (p.severity === 'error') head.push(`# error: ${p.message.replace(/\n/g, ' ')}`);
  const apps = [...exp.apps].sort((a, b) => compareGoStrings(a.name, b.name));
  const docs = apps.map((a) => {
    const prefix = a.invalid?.length ? a.invalid.map((m) => `# SKIPPED by the controller: ${m}\n`).join('') : '';
    return prefix + YAML.stringify(a.app, { lineWidth: 0, aliasDuplicateObjects: false });
  });
  return head.join('\n') + '\n' + (docs.length ? '---\n' + docs.join('---\n') : '# (no Applications)\n');
}
