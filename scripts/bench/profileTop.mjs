// The functions with the most self time in a V8 .cpuprofile (`node --cpu-prof`), and the same summed
// per source file: where a benchmark's CPU goes, without opening DevTools.
//   node scripts/bench/profileTop.mjs <file.cpuprofile> [rows]
import { readFileSync } from 'node:fs';

const [file, rowsArg] = process.argv.slice(2);
const rows = Number(rowsArg ?? 25);
const prof = JSON.parse(readFileSync(file, 'utf8'));
const self = new Map();
const byNode = new Map(prof.nodes.map((n) => [n.id, n]));
const dt = prof.timeDeltas;
for (let i = 0; i < prof.samples.length; i++) {
  const n = byNode.get(prof.samples[i]);
  const f = n.callFrame;
  const key = `${f.functionName || '(anonymous)'} ${f.url.split('/').slice(-2).join('/')}:${f.lineNumber + 1}`;
  self.set(key, (self.get(key) ?? 0) + (dt[i] ?? 0));
}
const total = [...self.values()].reduce((a, b) => a + b, 0);
const idle = [...self.entries()].filter(([k]) => /^\((idle|program|garbage collector)\)/.test(k));
console.log(`total ${(total / 1000).toFixed(0)} ms; ${idle.map(([k, v]) => `${k.split(' ')[0]} ${(v / 1000).toFixed(0)} ms`).join(', ')}`);
for (const [k, v] of [...self.entries()]
  .filter(([k]) => !/^\(idle\)/.test(k))
  .sort((a, b) => b[1] - a[1])
  .slice(0, rows))
  console.log(`${(v / 1000).toFixed(1).padStart(8)} ms  ${k}`);
