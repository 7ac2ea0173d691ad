/**
 * The install model as a report, for `appset instances`, the server's Output channel and the status
 * bar's tooltip: every Argo CD install, its namespaces, version, progressive syncs and other controller
 * settings, where each is written (file:line), and which ApplicationSets it runs and why.
 */
import { unreadLines } from './completeness';
import type { EngineInputs } from '../inputs';
import { label, rank, versionLabel } from '../versions/releases';
import { governingFor, installKeys, installModel, settingOf, versionInstance, type InstallModel } from './model';
import { isSample, type Instance } from './instances';
import { relativePath } from '../paths';
import { lineNumber } from '../yaml';
import { CONTROLLER_SETTINGS, decide, firstDeciding } from './scan';
import { governingVersion, supersededWhy } from './version';
import { evidenceDeployed } from './supersession';
import { argoCdNamed } from './names';

export interface InstallReportEntry {
  name: string;
  namespace?: string;
  /** Namespaces besides its own whose ApplicationSets it runs (`applicationsetcontroller.namespaces`). */
  watched: string[];
  /** In a sample folder: governs only its own folder. */
  sample: boolean;
  /** `bootstrap`: nothing in the repository deploys the manifest that states it (applied from outside, once). */
  version?: { line: string; label: string; why: string; where: string; bootstrap?: true };
  progressiveSyncs: { state: 'enabled' | 'disabled' | 'not-found'; where?: string; unread?: string[] };
  settings: { name: string; value: string; where: string }[];
  /** Every place the install is defined or configured (`file:line`). */
  evidence: string[];
  /** ApplicationSets (of the ones asked about) it runs, with why. */
  governs: { file: string; why: string }[];
}

export interface InstallReport {
  installs: InstallReportEntry[];
  /** ApplicationSets no install runs, with why (mapped ones say their mapping). */
  others: { file: string; why: string }[];
}

export function installReport(
  inputs: Pick<EngineInputs, 'host' | 'workspace' | 'settings'>,
  appsets: readonly { path: string; namespace?: string }[],
): InstallReport {
  const model: InstallModel = installModel(inputs);
  const roots = inputs.host.roots();
  const rel = (f: string) => relativePath(roots, f);
  const isBase = (i: Instance) => model.scan.instances.some((o) => o.bases.includes(i.key));
  const shown = model.scan.instances.filter((i) => !isBase(i));
  const entries = new Map<Instance, InstallReportEntry>();
  for (const inst of shown) {
    const keys = new Set(installKeys(inst));
    const ev = model.scan.evidence.filter((e) => e.instance !== undefined && keys.has(e.instance));
    const state = decide(ev);
    const by = firstDeciding(ev, state);
    const versions = model.versions.filter((v) => keys.has(versionInstance(v))).sort((a, b) => rank(a.line) - rank(b.line));
    const gov = { installs: [inst], owns: (_f: string, i: string | undefined) => i !== undefined && keys.has(i) };
    const settings = CONTROLLER_SETTINGS.flatMap((st) => {
      const v = settingOf(model, gov, st.name);
      // As the controller gets it: a file's trailing newline or an envs line's quotes shown (JSON-escaped).
      return v
        ? [{ name: st.cm, value: v.value === '' || /[\n\r\t"]|^\s|\s$/.test(v.value) ? JSON.stringify(v.value) : v.value, where: v.where }]
        : [];
    });
    const where = (file: string, span?: { start: number }) => {
      const text = inputs.workspace.file(file)?.text;
      if (!text || !span) return rel(file);
      return `${rel(file)}:${lineNumber(text, span.start)}`;
    };
    const evidence = [
      ...ev.map((e) => e.where ?? rel(e.file)),
      ...model.scan.settings.filter((s) => s.instance !== undefined && keys.has(s.instance)).map((s) => s.where ?? rel(s.file)),
      ...versions.map((v) => where(v.file, v.span)),
      ...model.scan.targets.filter((t) => t.instance !== undefined && keys.has(t.instance)).map((t) => rel(t.file)),
    ];
    const v = versions[0];
    entries.set(inst, {
      name: inst.name,
      ...(inst.namespace ? { namespace: inst.namespace } : {}),
      watched: inst.watched,
      sample: isSample(inst, roots),
      ...(v
        ? {
            version: {
              line: v.line,
              label: label(v.line),
              why: `${v.description}${v.note ? ` (${v.note})` : ''}`,
              where: where(v.file, v.span),
              ...(evidenceDeployed(model, v) ? {} : { bootstrap: true as const }),
            },
          }
        : {}),
      progressiveSyncs: {
        state,
        ...(by ? { where: by.where ?? rel(by.file) } : {}),
        ...(ev.some((e) => e.unread) ? { unread: unreadLines(ev, (e) => e.where ?? rel(e.file)) } : {}),
      },
      settings,
      evidence: [...new Set(evidence)].filter((e) => !evidence.some((o) => o !== e && o.startsWith(e + ':'))),
      governs: [],
    });
  }
  const others: InstallReport['others'] = [];
  for (const a of appsets) {
    const gov = governingFor(model, inputs, a);
    if (gov.mapping) {
      others.push({ file: rel(a.path), why: `mapped to Argo CD "${gov.mapping.name}" (${gov.mapping.origin ?? 'appsetTools.instances'})` });
      continue;
    }
    if (!gov.installs.length) {
      const r = gov.choice?.rejected ?? [];
      others.push({
        file: rel(a.path),
        why: r.length
          ? `no install runs it: ${r
              .slice(0, 3)
              .map((x) => `${argoCdNamed(x.inst.name)} was found, but ${x.why}`)
              .join('; ')}`
          : 'no Argo CD install in the repository',
      });
      continue;
    }
    // The version is decided once (install/version.ts): a superseded bootstrap's is said not to be known.
    const version = governingVersion(model, gov);
    const unknown = version?.superseded
      ? `; which version runs it is not known: ${supersededWhy(version, roots, versionLabel(version.pick))} (set argocdVersion in .appset-tools.yaml)`
      : '';
    for (const inst of gov.installs) entries.get(inst)?.governs.push({ file: rel(a.path), why: (gov.choice?.why ?? '') + unknown });
  }
  return { installs: [...entries.values()], others };
}

/** The report as text lines (CLI, Output channel). */
export function installReportLines(r: InstallReport): string[] {
  const out: string[] = [];
  if (!r.installs.length) out.push('no Argo CD install found in the repository');
  for (const i of r.installs) {
    out.push(
      `${argoCdNamed(i.name)}${i.namespace ? ` (namespace ${i.namespace}${i.watched.length ? `, also ${i.watched.join(', ')}` : ''})` : ''}${i.sample ? ' [sample folder: governs only its own folder]' : ''}`,
    );
    out.push(
      `  version: ${i.version ? `${i.version.label} — ${i.version.why} (${i.version.where})${i.version.bootstrap ? ', applied from outside: nothing in the repository deploys it' : ''}` : 'not stated in the repository (the newest release is assumed)'}`,
    );
    out.push(
      `  progressive syncs: ${i.progressiveSyncs.unread ? `unknown (${i.progressiveSyncs.unread.join('; ')})` : i.progressiveSyncs.state === 'not-found' ? "not set (the controller's default is off)" : i.progressiveSyncs.state}${i.progressiveSyncs.where ? ` (${i.progressiveSyncs.where})` : ''}`,
    );
    for (const s of i.settings) out.push(`  ${s.name}: ${s.value} (${s.where})`);
    if (i.evidence.length) out.push(`  defined in: ${i.evidence.join(', ')}`);
    if (i.governs.length) {
      out.push(`  runs ${i.governs.length} ApplicationSet file${i.governs.length === 1 ? '' : 's'}:`);
      for (const g of i.governs) out.push(`    ${g.file} — ${g.why}`);
    }
  }
  for (const o of r.others) out.push(`${o.file}: ${o.why}`);
  return out;
}
