/**
 * `node --import tsx scripts/bench/yamlReaders.ts`: what each way of reading an edited text costs
 * (the YAML reader's `parseYamlFile(text, previous)`, engine/yaml/document.ts), per keystroke, on the bench's documents — so
 * that an incremental path stays only while it pays for itself (ARCHITECTURE.md, docs/performance.md).
 * Paths: the previous parse's `---` parts re-used; the fast reader taking the entries before the edit
 * from the previous reading; the fast reader alone; the library on the whole part. In-process, CPU
 * time, median of many keystrokes; `--n N` sets how many.
 */
import { astOf, parseYamlFile, type Reader, type YamlFile } from '../../server/src/engine/yaml';
import { longList, manyAppSets } from './fixtures';

const n = Number(process.argv[process.argv.indexOf('--n') + 1]) || 60;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** Keystrokes: the value `team-5` typed over and over in the middle of the text (each a new text). */
function edits(text: string): string[] {
  const at = text.indexOf('team-', Math.floor(text.length * (Number(process.env.AT) || 0.5))) + 'team-'.length;
  return Array.from({ length: n + 1 }, (_, i) => text.slice(0, at) + String.fromCharCode(97 + (i % 26)) + text.slice(at + 1));
}

function perKeystroke(texts: string[], withPrevious: boolean, reader: Reader): { ms: number; reuse: string } {
  let prev: YamlFile | undefined = parseYamlFile(texts[0], undefined, undefined, reader);
  for (const d of prev.docs) astOf(d.doc);
  const times: number[] = [];
  let reuse = '';
  for (const t of texts.slice(1)) {
    const t0 = process.cpuUsage();
    const p = parseYamlFile(t, withPrevious ? prev : undefined, undefined, reader);
    // The language service builds every document's located tree on each keystroke (ast.ts).
    for (const d of p.docs) astOf(d.doc);
    const d = process.cpuUsage(t0);
    times.push((d.user + d.system) / 1000);
    reuse = JSON.stringify(p.reuse);
    prev = p;
  }
  return { ms: median(times), reuse };
}

const cases: [string, string][] = [
  ['111 KiB list (540 elements)', longList(540)],
  ['111 KiB list with an anchor (the fast reader gives up)', longList(540).replace('  generators:\n', '  generators: &g\n')],
  ["222 KiB list (1,080 elements: over the fast reader's 128 KiB)", longList(1080)],
  ['50 ApplicationSets in one file (---)', manyAppSets(50)],
];
for (const [what, text] of cases) {
  const texts = edits(text);
  const rows: [string, ReturnType<typeof perKeystroke>][] = [
    ['previous parse, fast reader', perKeystroke(texts, true, 'fast')],
    ['no previous parse, fast reader', perKeystroke(texts, false, 'fast')],
    ['previous parse, library (one-entry re-parse)', perKeystroke(texts, true, 'library')],
    ['no previous parse, library', perKeystroke(texts, false, 'library')],
  ];
  console.log(`${what}, ${(text.length / 1024).toFixed(0)} KiB:`);
  for (const [how, r] of rows) console.log(`  ${how.padEnd(48)} ${r.ms.toFixed(2).padStart(7)} ms  ${r.reuse}`);
}
