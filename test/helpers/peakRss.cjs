// Preloaded with `node --require` by the template-bound process tests (templateProbes.ts): on exit, the
// process's peak resident memory and CPU time go to the file $APPSET_PEAK_FILE names.
const file = process.env.APPSET_PEAK_FILE;
if (file) {
  process.on('exit', () => {
    const u = process.resourceUsage();
    require('node:fs').writeFileSync(file, JSON.stringify({ maxRssMB: u.maxRSS / 1024, cpuMs: (u.userCPUTime + u.systemCPUTime) / 1000 }));
  });
}
