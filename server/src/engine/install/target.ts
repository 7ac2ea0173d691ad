/**
 * The Argo CD version an ApplicationSet is checked against, and why:
 * 1. `appsetTools.argocdVersion` / `--argocd-version` / the repository config file, when not `auto`;
 * 2. else the version of the Argo CD install that runs this ApplicationSet, chosen by the install
 *    model's one rule (install/model.ts `governing`: mapping > folder > namespace > the repository's
 *    installs), so the version and progressive-sync enablement always speak of the same install; when
 *    several installs are tied and disagree, the oldest (findings about fields and functions it lacks
 *    are the ones that cost silently); unknown when the only version stated is a superseded bootstrap
 *    (install/version.ts): then the newest release, and what the bootstrap's release would drop is
 *    information only;
 * 3. else the newest supported release.
 */
import type { SourceText } from '../inputs';
import type { RelatedInfo } from '../types';
import type { AppSetDoc } from '../kinds';
import type { InstallEvidence } from '../versions/detect';
import { governingFor, installModel, type InstallModel } from './model';
import type { InstanceMapping } from '../host';
import { governingVersion, supersededWhy } from './version';
import { label, NEWEST_RELEASE, parseVersion, versionLabel, type ReleaseLine } from '../versions/releases';
import { argoCdsNamed } from './names';

export interface TargetVersion {
  line: ReleaseLine;
  /** The patch release when the setting or the install names one (`v2.14.3` → 3); else the line's latest is assumed. */
  patch?: number;
  /** `setting` (settings, CLI flag or config file), `detected` (the repository's install), `default`. */
  source: 'setting' | 'detected' | 'default';
  /** One sentence: which version and why, e.g. "Argo CD 3.2 (argocd/kustomization.yaml: kustomize remote base … ?ref=v3.2.5)". */
  why: string;
  /** Where the deciding evidence is. */
  evidence?: InstallEvidence;
  /** The version is older than the oldest supported release: checked as it, without the fields it added. */
  belowOldest?: true;
  /**
   * The version a superseded bootstrap install states (install/version.ts) when the running version is
   * not known: the ApplicationSet is checked against the newest release, and what this one would drop
   * is said as information (versions/fieldCheck.ts).
   */
  bootstrap?: { line: ReleaseLine; patch?: number; belowOldest?: true; evidence: InstallEvidence; why: string };
}

export function targetVersion(file: SourceText, doc: AppSetDoc): TargetVersion {
  const setting = (file.settings.argocdVersion ?? 'auto').trim();
  if (setting && setting !== 'auto') {
    const p = parseVersion(setting);
    if (p)
      return {
        line: p.line,
        ...(p.patch !== undefined ? { patch: p.patch } : {}),
        source: 'setting',
        why: `${versionLabel(p)} (set by argocdVersion "${setting}"${p.note ? `, ${p.note}` : ''})`,
        ...(p.belowOldest ? { belowOldest: true as const } : {}),
      };
  }
  // No install known yet means the newest release (a safe default): the first answer does not wait for the workspace.
  const model = installModel(file, true);
  // The answer depends only on the model (one per workspace version and roots), the install settings, the
  // file's path and the ApplicationSet's namespace: the ApplicationSets of one file share it (the bench's
  // 50-ApplicationSet file chose the same install 100 times, issue 39).
  const path = file.path ?? '';
  const namespace = appsetNamespace(doc);
  let perModel = targets.get(model);
  if (!perModel) targets.set(model, (perModel = new WeakMap()));
  const instances = file.settings.instances ?? NO_MAPPINGS;
  let perMappings = perModel.get(instances);
  if (!perMappings) perModel.set(instances, (perMappings = new Map()));
  const key = `${file.settings.instance ?? ''}\u0000${path}\u0000${namespace ?? ''}\u0000${namespace === undefined}`;
  let found = perMappings.get(key);
  if (!found) perMappings.set(key, (found = detected(model, file, path, namespace)));
  return found;
}

/** No `instances` mappings (the key of `targets` when the settings have none). */
const NO_MAPPINGS: readonly InstanceMapping[] = [];
/** `detected`'s answers per model, mappings and (instance, path, namespace); a model is never modified once built. */
const targets = new WeakMap<InstallModel, WeakMap<readonly InstanceMapping[], Map<string, TargetVersion>>>();

/** The target version from the install model (`targetVersion` without a version setting). */
function detected(model: InstallModel, file: SourceText, path: string, namespace: string | undefined): TargetVersion {
  const roots = file.host.roots();
  const gov = governingFor(model, file, { path, namespace });
  const chosen = governingVersion(model, gov);
  if (chosen?.superseded) {
    const pick = chosen.pick;
    const stated = `${versionLabel(pick)} (${pick.description})`;
    const because = supersededWhy(chosen, roots, stated);
    return {
      line: NEWEST_RELEASE,
      source: 'default',
      why: `${label(NEWEST_RELEASE)} (which version runs it is not known: ${because}; assuming the newest release — set argocdVersion in .appset-tools.yaml to the version that runs it)`,
      bootstrap: {
        line: pick.line,
        ...(pick.patch !== undefined ? { patch: pick.patch } : {}),
        ...(pick.belowOldest ? { belowOldest: true as const } : {}),
        evidence: pick,
        why: because,
      },
    };
  }
  if (chosen) {
    const where = relative(chosen.pick.file, roots);
    const others =
      (chosen.bootstrap?.length
        ? `; ${[...new Set(chosen.bootstrap.map((b) => `${relative(b.file, roots)} (${versionLabel(b)})`))].join(', ')} is applied from outside the repository, a bootstrap the install the repository deploys replaces`
        : '') + (chosen.disagree ? `; other installs in the repository say ${chosen.disagree}` : '');
    return {
      line: chosen.pick.line,
      ...(chosen.pick.patch !== undefined ? { patch: chosen.pick.patch } : {}),
      source: 'detected',
      evidence: chosen.pick,
      ...(chosen.pick.belowOldest ? { belowOldest: true as const } : {}),
      why: `${versionLabel(chosen.pick)} (detected: ${chosen.pick.description} in ${where}${chosen.pick.note ? `, ${chosen.pick.note}` : ''}${others})`,
    };
  }
  const runs = gov.mapping ? `Argo CD "${gov.mapping.name}"` : gov.installs.length ? argoCdsNamed(gov.installs.map((i) => i.name)) : '';
  if (runs)
    return {
      line: NEWEST_RELEASE,
      source: 'default',
      why: `${label(NEWEST_RELEASE)} (${runs} runs it, and nothing in the repository says which version it installs: assuming the newest release)`,
    };
  return {
    line: NEWEST_RELEASE,
    source: 'default',
    why: `${label(NEWEST_RELEASE)} (no Argo CD install found in the repository and argocdVersion is auto: assuming the newest release)`,
  };
}

/** Related information pointing at the evidence that decided the version. */
export function targetRelated(t: TargetVersion): RelatedInfo[] {
  return t.evidence
    ? [
        {
          location: { file: t.evidence.file, span: t.evidence.span },
          message: `checked against ${label(t.line)}: ${t.evidence.description}`,
        },
      ]
    : [];
}

function appsetNamespace(doc: AppSetDoc): string | undefined {
  const v = doc.value as { metadata?: { namespace?: unknown } } | null;
  const ns = v && typeof v === 'object' ? v.metadata?.namespace : undefined;
  return typeof ns === 'string' && ns ? ns : undefined;
}

function relative(p: string, roots: string[]): string {
  for (const r of roots) if (p.startsWith(r.endsWith('/') ? r : r + '/')) return p.slice(r.length).replace(/^\//, '');
  return p;
}
