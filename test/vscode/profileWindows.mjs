// Where the workbench's main thread spent the windows a test marked (util.js markWindow), from the CPU
// profile the shim wrote under CODE_SHIM_PROFILE: busy time, and the functions with the most self and
// total time in each window.
//   CODE_SHIM_PROFILE=/tmp/wb.cpuprofile APPSET_VSCODE_GREP='incident scale' node test/vscode/runTest.mjs
//   node test/vscode/profileWindows.mjs /tmp/wb.cpuprofile [rows]
import { existsSync, readFileSync } from 'node:fs';

const [file, rowsArg] = process.argv.slice(2);
const rows = Number(rowsArg ?? 15);
const prof = JSON.parse(readFileSync(file, 'utf8'));
const windowsFile = `${file}.windows.jsonl`;
const windows = existsSync(windowsFile)
  ? readFileSync(windowsFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l))
  : [];
const byId = new Map(prof.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const label = (n) => {
  const f = n.callFrame;
  return `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber + 1}:${f.columnNumber + 1}`;
};
// Sample times in µs of the profile's clock.
const times = [];
let t = prof.startTime;
for (const d of prof.timeDeltas) times.push((t += d));
// The wall clock: the first sample inside shimClockMark is its Date.now().
const markAt = prof.samples.findIndex((id) => {
  for (let n = id; n !== undefined; n = parent.get(n)) if (byId.get(n).callFrame.functionName === 'shimClockMark') return true;
  return false;
});
if (markAt < 0) throw new Error('no shimClockMark sample in the profile');
const wall = (i) => prof.shimClockMark + (times[i] - times[markAt]) / 1000;

/** CPU seconds (the shim polls Chromium's metrics every 25 ms) between a window's ends, interpolated. */
function cpuIn(w) {
  const series = prof.shimCpu ?? [];
  const at = (t, key) => {
    const i = series.findIndex((x) => x.at >= t);
    if (i <= 0) return series[Math.max(0, i)]?.[key];
    const [p, q] = [series[i - 1], series[i]];
    return p[key] + ((q[key] - p[key]) * (t - p.at)) / Math.max(1, q.at - p.at);
  };
  if (!series.length || series[0].thread === undefined) return undefined;
  const ms = (key) => Math.round((at(w.end, key) - at(w.start, key)) * 1000);
  return { thread: ms('thread'), process: ms('process') };
}

for (const w of windows) {
  const self = new Map();
  const total = new Map();
  let busy = 0;
  let all = 0;
  for (let i = 1; i < prof.samples.length; i++) {
    const at = wall(i);
    if (at < w.start || at > w.end) continue;
    const dt = (times[i] - times[i - 1]) / 1000;
    all += dt;
    const n = byId.get(prof.samples[i]);
    if (n.callFrame.functionName === '(idle)') continue;
    busy += dt;
    self.set(label(n), (self.get(label(n)) ?? 0) + dt);
    const seen = new Set();
    for (let id = n.id; id !== undefined; id = parent.get(id)) {
      const l = label(byId.get(id));
      if (seen.has(l)) continue;
      seen.add(l);
      total.set(l, (total.get(l) ?? 0) + dt);
    }
  }
  console.log(
    `\n== ${w.name}: ${w.end - w.start} ms of wall time, the main thread busy ${busy.toFixed(0)} ms (sampled ${all.toFixed(0)} ms)`,
  );
  const cpu = cpuIn(w);
  if (cpu)
    console.log(
      `   CPU time: the workbench's main thread ${cpu.thread} ms, its whole renderer process (with the workers) ${cpu.process} ms`,
    );
  const top = (m) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, rows)
      .map(([k, v]) => `  ${v.toFixed(1).padStart(7)} ms  ${k}`)
      .join('\n');
  console.log(` self:\n${top(self)}\n total:\n${top(total)}`);
}
