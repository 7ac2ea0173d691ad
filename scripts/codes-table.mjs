// Rewrites the "codes" section of docs/codes.md from the diagnostic code registry
// (server/src/engine/diagnostics/codes.ts), so the table always lists every registered code.
//   node --import tsx scripts/codes-table.mjs          rewrite docs/codes.md
//   node --import tsx scripts/codes-table.mjs --check  exit 1 if docs/codes.md is out of date
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { ALL_CODES } = await import(join(root, 'server/src/engine/diagnostics/codes.ts'));
const readmePath = join(root, 'docs', 'codes.md');
const readme = readFileSync(readmePath, 'utf8');

const AREAS = {
  yaml: 'YAML',
  appset: 'ApplicationSet structure',
  template: 'Templates',
  generator: 'Generators and rendering',
  render: 'Generators and rendering',
  rollout: 'Progressive syncs',
  policy: 'Policy gates (.appset-tools.yaml)',
  config: 'Configuration and suppressions',
  helm: 'Helm',
  inventory: 'Cluster inventory',
  controller: 'ApplicationSet controller settings',
};
const all = ALL_CODES;
const esc = (s) => s.replace(/\|/g, '\\|');
const rows = [];
let lastArea = '';
for (const c of all) {
  const area = AREAS[c.code.split('/')[0]] ?? c.code.split('/')[0];
  if (area !== lastArea) {
    rows.push(`| **${area}** | | |`);
    lastArea = area;
  }
  // The anchor is what `appset lint --format sarif` links each rule's help to (`#code-appset-unknown-field`).
  rows.push(
    `| <a id="code-${c.code.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}"></a>\`${c.code}\` | ${c.severity}${c.variant ? ` (${c.variant.severity} when ${esc(c.variant.when)})` : ''} | ${esc(c.summary)} |`,
  );
}
const body = `# Diagnostic codes

Every diagnostic has a stable code (shown in the editor's Problems view and by \`appset lint\`). Its
severity is always the one in this table (a few codes name one case with another severity, in
parentheses); only your \`.appset-tools.yaml\` (\`severity:\`) changes it. This table is generated from
the code registry by \`node --import tsx scripts/codes-table.mjs\`.

| code | severity | meaning |
| --- | --- | --- |
${rows.join('\n')}

`;
const start = readme.indexOf('<!-- section: codes -->');
if (start < 0) throw new Error('docs/codes.md has no <!-- section: codes --> marker');
const afterMarker = start + '<!-- section: codes -->'.length;
const next = readme.indexOf('<!-- section:', afterMarker);
const updated = readme.slice(0, afterMarker) + '\n' + body + (next < 0 ? '' : readme.slice(next));
if (process.argv.includes('--check')) {
  if (updated !== readme) {
    console.error('docs/codes.md codes table is out of date: run node --import tsx scripts/codes-table.mjs');
    process.exit(1);
  }
} else if (updated !== readme) {
  writeFileSync(readmePath, updated);
  console.log(`docs/codes.md: ${all.length} codes`);
}
