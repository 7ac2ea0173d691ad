/**
 * The tables of docs/versions.md, generated from the data they describe: the behaviour gates
 * (server/src/engine/versions/behaviours.ts), the fields each release added and the Go and template
 * libraries of every release and patch run (schemas/argocd-versions.json). Each table sits between
 * `<!-- generated: NAME -->` and `<!-- /generated -->`; test/unit/versions.test.ts checks they agree.
 *   node --import tsx scripts/versions-tables.ts           rewrite docs/versions.md
 *   node --import tsx scripts/versions-tables.ts --check   exit 1 if it is out of date
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GATES } from '../server/src/engine/versions/behaviours';
import { RELEASES, type ReleaseLibraries } from '../server/src/engine/versions/releases';
import data from '../schemas/argocd-versions.json';

const esc = (s: string) => s.replace(/\|/g, '\\|');

function gatesTable(): string {
  const rows = Object.values(GATES).map((g) => `| ${g.since} | ${esc(g.what)} | \`${esc(g.source)}\` | \`${g.commit}\` |`);
  return ['| since | what | upstream (argoproj/argo-cd) | commit |', '| --- | --- | --- | --- |', ...rows].join('\n');
}

function fieldsTable(): string {
  const added = data.fieldsAddedIn as Record<string, string[]>;
  const rows = RELEASES.filter((r) => added[r.version]).map((r) => {
    // The field names, each once (the same field under every generator's template is one entry).
    const names = [
      ...new Set(
        added[r.version].map((s) =>
          s
            .split('.')
            .filter((x) => x !== '[]')
            .slice(-2)
            .join('.'),
        ),
      ),
    ].sort();
    const at = r.tag ? `${r.tag} (\`${r.commit.slice(0, 10)}\`)` : `\`${r.commit.slice(0, 10)}\``;
    return `| ${r.version} | ${names.map((n) => `\`${n}\``).join(', ')} | ${at} |`;
  });
  return ['| release | fields it added (last two path segments) | CRD read at |', '| --- | --- | --- |', ...rows].join('\n');
}

function librariesTable(): string {
  const row = (what: string, l: ReleaseLibraries) => `| ${what} | ${l.go} | ${l.sprig} | ${l.semver} | ${l.xstrings} | ${l.mergo} |`;
  const rows: string[] = [];
  for (const r of RELEASES) {
    const runs = r.patches ?? [];
    if (runs.length < 2) {
      rows.push(row(r.version, r.libraries));
      continue;
    }
    const last = r.tag ? Number(r.tag.split('.')[2]) : undefined;
    runs.forEach(([first, libs], i) => {
      const end = i + 1 < runs.length ? runs[i + 1][0] - 1 : last;
      rows.push(row(end === first ? `${r.version}.${first}` : `${r.version}.${first}–${r.version}.${end}`, libs));
    });
  }
  return ["| release | Go | sprig | semver | xstrings | mergo (sprig's `merge`…) |", '| --- | --- | --- | --- | --- | --- |', ...rows].join(
    '\n',
  );
}

const TABLES: Record<string, () => string> = { gates: gatesTable, fields: fieldsTable, libraries: librariesTable };

/** `doc` with every generated block replaced by the table the data gives now. */
export function withVersionTables(doc: string): string {
  return doc.replace(/(<!-- generated: (\w+) -->)[\s\S]*?(<!-- \/generated -->)/g, (all, open: string, name: string, close: string) =>
    TABLES[name] ? `${open}\n${TABLES[name]()}\n${close}` : all,
  );
}

export const VERSIONS_DOC = join(__dirname, '..', 'docs', 'versions.md');

if (require.main === module) {
  const doc = readFileSync(VERSIONS_DOC, 'utf8');
  const next = withVersionTables(doc);
  if (process.argv.includes('--check')) {
    if (next !== doc) {
      console.error('docs/versions.md is out of date: run node --import tsx scripts/versions-tables.ts');
      process.exit(1);
    }
  } else {
    writeFileSync(VERSIONS_DOC, next);
    console.log('docs/versions.md: tables rewritten');
  }
}
