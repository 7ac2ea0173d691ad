/**
 * Helm's merge order over what the scan collected: of one install's chain only the last place that sets
 * a Helm key counts (see collector.ts `Place`).
 */
import { relativePath } from '../paths';
import type { Collector, Ordered } from './collector';

/**
 * Helm merges values files in order, so of one install's chain only the last place that sets a key
 * counts: the earlier ones are kept as evidence, marked overridden (and their settings dropped).
 */
export function applyOverrides(c: Collector) {
  const last = new Map<string, { rank: number; who: string }>();
  const items: (Ordered & { file: string })[] = [...c.evidence.filter((e) => e.effect !== 'ignored'), ...c.settings];
  for (const e of items as (Ordered & { file: string; description?: string })[]) {
    if (e.chain === undefined || e.rank === undefined) continue;
    const k = `${e.chain}|${e.slot}`;
    const best = last.get(k);
    if (!best || e.rank > best.rank) last.set(k, { rank: e.rank, who: e.file });
  }
  const overridden = (e: Ordered) => {
    if (e.chain === undefined || e.rank === undefined) return undefined;
    const best = last.get(`${e.chain}|${e.slot}`);
    return best && best.rank > e.rank ? best.who : undefined;
  };
  for (const e of c.evidence) {
    const by = e.effect === 'ignored' ? undefined : overridden(e as Ordered);
    if (by === undefined) continue;
    e.effect = 'ignored';
    delete e.level;
    delete e.enableText;
    e.description += `, but Helm reads ${relativePath(c.roots, by)} after it, which sets it again (the later values win)`;
  }
  c.settings = c.settings.filter((s) => overridden(s as Ordered) === undefined);
}
