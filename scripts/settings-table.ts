/**
 * package.json's `contributes.configuration` and docs/editors.md's settings table, generated from the
 * one settings table (server/src/protocol/settingsTable.ts). The docs table sits between
 * `<!-- generated: settings -->` and `<!-- /generated -->`; test/unit/settings-table.test.ts checks
 * that both agree with the table.
 *   node --import tsx scripts/settings-table.ts           rewrite package.json and docs/editors.md
 *   node --import tsx scripts/settings-table.ts --check   exit 1 if either is out of date
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SETTINGS } from '@appset-tools/protocol/settingsTable';

const esc = (s: string) => s.replace(/\|/g, '\\|');

/** The `contributes.configuration.properties` of package.json: each entry without its `docs`. */
export function contributedProperties(): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, entry] of Object.entries(SETTINGS)) {
    const { docs: _docs, ...contribution } = entry;
    out[`appsetTools.${name}`] = contribution;
  }
  return out;
}

/** docs/editors.md's settings table. */
export function settingsTable(): string {
  const rows = Object.entries(SETTINGS).map(([name, e]) => {
    const shown = typeof e.default === 'string' ? e.default : JSON.stringify(e.default);
    return `| \`appsetTools.${name}\` | \`${shown}\` | ${esc(e.docs)} |`;
  });
  return ['| setting | default | meaning |', '| --- | --- | --- |', ...rows].join('\n');
}

/** package.json's text with its settings contribution generated from the table. */
export function withContributedSettings(packageJson: string): string {
  const pkg = JSON.parse(packageJson) as { contributes: { configuration: { properties: unknown } } };
  pkg.contributes.configuration.properties = contributedProperties();
  return JSON.stringify(pkg, null, 2) + '\n';
}

/** docs/editors.md's text with its generated settings table. */
export function withSettingsTable(doc: string): string {
  return doc.replace(/(<!-- generated: settings -->)[\s\S]*?(<!-- \/generated -->)/, (_all, open: string, close: string) => {
    return `${open}\n${settingsTable()}\n${close}`;
  });
}

export const PACKAGE_JSON = join(__dirname, '..', 'package.json');
export const EDITORS_DOC = join(__dirname, '..', 'docs', 'editors.md');

if (require.main === module) {
  const files: [string, (text: string) => string][] = [
    [PACKAGE_JSON, withContributedSettings],
    [EDITORS_DOC, withSettingsTable],
  ];
  let stale = false;
  for (const [file, write] of files) {
    const text = readFileSync(file, 'utf8');
    const next = write(text);
    if (next === text) continue;
    if (process.argv.includes('--check')) {
      console.error(`${file} is out of date: run node --import tsx scripts/settings-table.ts`);
      stale = true;
    } else {
      writeFileSync(file, next);
      console.log(`${file}: settings rewritten`);
    }
  }
  if (stale) process.exit(1);
}
