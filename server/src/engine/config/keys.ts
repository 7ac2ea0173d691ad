/**
 * The keys of the repository configuration file `.appset-tools.yaml`: one table, so the loader, the
 * README and the "did you mean" of an unknown key read the same list. A key reads its YAML value into
 * `RepoConfig` and returns a problem text when the value is unusable (the key is then ignored).
 *
 * To add a key (e.g. an Argo CD version or an instance mapping): add a `ConfigKey` here and a field to
 * `RepoConfig`; the loader validates it and the README's config reference lists it.
 */
import type { InstanceMapping } from '../host';
import type { Json } from '../types';
import type { RepoConfig, SeverityOverride } from './types';
import { isVersionSetting } from '../versions/releases';
import { isObj, put } from '../objects';
import { ALL_CODES } from '../diagnostics/codes';
import { suggest } from '../didYouMean';
import { resolvePath } from '../paths';
import {
  isProgressiveSyncOverride,
  isWholeNumberSetting,
  wholeNumberRange,
  type WholeNumberSetting,
} from '@appset-tools/protocol/settingsTable';

export interface ConfigKey {
  key: string;
  /** One line for the README's reference and the hover. */
  doc: string;
  /**
   * Reads the value into `into`; returns why it is unusable (with the path of the offending entry
   * below the key, when it is one entry), or undefined when it was taken. `source` is the value's
   * text as written in the file (for a scalar whose YAML reading loses what was meant, e.g. `2.10`).
   */
  read(value: Json, into: RepoConfig, dir: string, source?: string): Problem | Problem[] | undefined;
}

type Obj = { [key: string]: Json };
export type Problem = string | { message: string; at: (string | number)[] };

const SEVERITIES = ['error', 'warning', 'information', 'hint', 'off'] as const;

/** Why `code` names no diagnostic code (`area/*` an area, `*` every code), or undefined when it names some. */
function unknownCode(code: string): string | undefined {
  if (code === '*') return undefined;
  if (code.endsWith('/*')) {
    const areas = new Set(ALL_CODES.map((c) => c.code.split('/')[0]));
    if (areas.has(code.slice(0, -2))) return undefined;
    const s = suggest(code.slice(0, -2), areas);
    return `unknown area "${code}"${s ? `; did you mean "${s}/*"?` : ''} (docs/codes.md lists the codes)`;
  }
  if (ALL_CODES.some((c) => c.code === code)) return undefined;
  const s = suggest(
    code,
    ALL_CODES.map((c) => c.code),
  );
  return `unknown code "${code}"${s ? `; did you mean "${s}"?` : ''} (docs/codes.md lists the codes)`;
}

const posInt = (v: Json): number | undefined => (typeof v === 'number' && Number.isSafeInteger(v) && v >= 1 ? v : undefined);
const describe = (v: Json) => (v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v === 'object' ? 'a mapping' : JSON.stringify(v));

/** A setting that takes a whole number: the settings table's one rule (`isWholeNumberSetting`), as the editor and the CLI read it. */
function wholeNumberKey(key: WholeNumberSetting, doc: string): ConfigKey {
  return {
    key,
    doc,
    read(v, into) {
      if (!isWholeNumberSetting(key, v)) return `expected ${wholeNumberRange(key)}, got ${describe(v)}`;
      into.settings[key] = v;
      return undefined;
    },
  };
}

const INSTANCE_FIELDS = ['name', 'applicationSets', 'config', 'progressiveSyncs'];
/** A path or a list of non-empty paths (undefined when it is neither). */
const pathList = (v: Json | undefined): string[] | undefined => {
  const l = typeof v === 'string' ? [v] : v;
  return Array.isArray(l) && l.every((x) => typeof x === 'string' && x !== '') ? (l as string[]) : undefined;
};

export const CONFIG_KEYS: ConfigKey[] = [
  {
    key: 'inventoryFiles',
    doc: 'files with cluster Secrets or cluster inventories (relative to the config file, globs allowed)',
    read(v, into, dir) {
      const list = typeof v === 'string' ? [v] : v;
      if (!Array.isArray(list) || !list.every((x) => typeof x === 'string')) return `expected a list of paths, got ${describe(v)}`;
      into.settings.inventoryFiles = (list as string[]).map((p) => resolvePath(dir, p));
      return undefined;
    },
  },
  {
    key: 'repoMappings',
    doc: 'git or OCI repoURL → local folder (relative to the config file), for git and oci generators',
    read(v, into, dir) {
      if (!isObj(v)) return `expected a mapping of repoURL: folder, got ${describe(v)}`;
      const m: Record<string, string> = Object.create(null);
      for (const [url, d] of Object.entries(v)) {
        if (typeof d !== 'string') return { message: `the folder for ${url} must be a string, got ${describe(d)}`, at: [url] };
        put(m, url, resolvePath(dir, d));
      }
      into.settings.repoMappings = m;
      return undefined;
    },
  },
  {
    key: 'progressiveSyncs',
    doc: '`auto` (detect from the repository), `enabled` or `disabled`: whether the controller runs progressive syncs',
    read(v, into) {
      if (!isProgressiveSyncOverride(v)) return `expected auto, enabled or disabled, got ${describe(v)}`;
      into.settings.progressiveSyncs = v;
      return undefined;
    },
  },
  wholeNumberKey('maxApplications', 'stop expanding an ApplicationSet after this many Applications'),
  {
    key: 'newGitFileGlobbing',
    doc: 'the controller runs with `--enable-new-git-file-globbing`',
    read(v, into) {
      if (typeof v !== 'boolean') return `expected true or false, got ${describe(v)}`;
      into.settings.newGitFileGlobbing = v;
      return undefined;
    },
  },
  wholeNumberKey('blastRadiusThreshold', 'minimum Applications for the AllAtOnce blast-radius note (`rollout/blast-radius`)'),
  wholeNumberKey(
    'maxWaveSize',
    'a RollingSync wave that syncs more Applications at once gets `rollout/large-wave`; the careful strategy never exceeds it',
  ),
  wholeNumberKey(
    'minutesPerSync',
    'minutes one sync is assumed to take, health included (default 3): the proposed strategies say their total time, and the rollout timeline (plan, rollout view, diff) is computed at this pace',
  ),
  {
    key: 'impactBaseline',
    doc: 'what the editor\'s "This change" lens compares with: `HEAD` (default), `merge-base` (with the default branch), another git revision, or `off`',
    read(v, into) {
      if (typeof v !== 'string' || !v.trim() || v.trim().startsWith('-'))
        return `expected HEAD, merge-base, off or a git revision, got ${describe(v)}`;
      into.settings.impactBaseline = v.trim();
      return undefined;
    },
  },
  {
    key: 'instances',
    doc: 'which Argo CD runs which ApplicationSets: name → `applicationSets` (globs), `config` (its configuration files or folders), `progressiveSyncs` (`enabled`/`disabled`, when configured outside the repository); paths relative to the config file',
    read(v, into, dir) {
      const out: InstanceMapping[] = [];
      // A mapping keyed by instance name, or the editor setting's list of { name, … }.
      const entries: [string, Json, (string | number)[]][] = Array.isArray(v)
        ? v.map((e, i) => [isObj(e) && typeof e.name === 'string' && e.name ? e.name : `instance ${i + 1}`, e, [i]])
        : isObj(v)
          ? Object.entries(v).map(([k, e]) => [k, e, [k]])
          : [];
      if (!entries.length) return `expected a mapping of instance name: { applicationSets, config, progressiveSyncs }, got ${describe(v)}`;
      for (const [name, e, at] of entries.slice(0, 100)) {
        if (!isObj(e)) return { message: `instance "${name}": expected a mapping with applicationSets, got ${describe(e)}`, at };
        for (const k of Object.keys(e))
          if (!INSTANCE_FIELDS.includes(k))
            return { message: `instance "${name}": unknown field "${k}" (known: ${INSTANCE_FIELDS.join(', ')})`, at: [...at, k] };
        const apps = pathList(e.applicationSets);
        if (!apps?.length)
          return {
            message: `instance "${name}": applicationSets must be a path, glob or list of them`,
            at: e.applicationSets === undefined ? at : [...at, 'applicationSets'],
          };
        const config = e.config === undefined ? [] : pathList(e.config);
        if (!config)
          return {
            message: `instance "${name}": config must be a path or a list of paths, got ${describe(e.config)}`,
            at: [...at, 'config'],
          };
        const ps = e.progressiveSyncs;
        if (ps !== undefined && ps !== 'enabled' && ps !== 'disabled')
          return {
            message: `instance "${name}": progressiveSyncs must be enabled or disabled, got ${describe(ps)}`,
            at: [...at, 'progressiveSyncs'],
          };
        out.push({
          name,
          applicationSets: apps.map((p) => resolvePath(dir, p)),
          config: config.map((p) => resolvePath(dir, p)),
          ...(ps ? { progressiveSyncs: ps } : {}),
          origin: '.appset-tools.yaml instances',
        });
      }
      into.settings.instances = out;
      return undefined;
    },
  },
  {
    key: 'argocdVersion',
    doc: "the Argo CD release to check against: `auto` (detect the repository's install), `3.2`, `v3.2.5`, `master`, or `stable`/`latest` (the newest release)",
    read(v, into, _dir, source) {
      // YAML reads an unquoted `2.10` as the number 2.1: a number is taken as written in the file.
      const text = typeof v === 'number' ? (source !== undefined && /^\s*[0-9.]+\s*$/.test(source) ? source : String(v)) : v;
      if (typeof text !== 'string' || !isVersionSetting(text.trim()))
        return `expected auto, a release such as 3.2 or v3.2.5, master, stable or latest, got ${describe(v)}`;
      into.settings.argocdVersion = text.trim();
      return undefined;
    },
  },
  {
    key: 'severity',
    doc: 'per diagnostic code: `error`, `warning`, `information`, `hint` or `off`; `area/*` sets a whole area',
    read(v, into) {
      if (!isObj(v)) return `expected a mapping of code: severity, got ${describe(v)}`;
      // Each entry on its own: a bad one is reported and skipped, the entries after it still apply.
      const problems: Problem[] = [];
      for (const [code, s] of Object.entries(v)) {
        const unknown = unknownCode(code);
        if (unknown) problems.push({ message: unknown, at: [code] });
        else if (!(SEVERITIES as readonly unknown[]).includes(s))
          problems.push({ message: `the severity of ${code} must be one of ${SEVERITIES.join(', ')}, got ${describe(s)}`, at: [code] });
        else into.severity.set(code, s as SeverityOverride);
      }
      return problems.length ? problems : undefined;
    },
  },
  {
    key: 'ignore',
    doc: 'paths or globs (relative to the config file) whose files get no findings and are skipped by `appset lint`',
    read(v, into, dir) {
      const list = typeof v === 'string' ? [v] : v;
      if (!Array.isArray(list) || !list.every((x) => typeof x === 'string')) return `expected a list of paths or globs, got ${describe(v)}`;
      into.ignore = (list as string[]).map((p) => resolvePath(dir, p));
      return undefined;
    },
  },
  {
    key: 'policy',
    doc: 'policy gates: `maxSyncAtOnce`, `requireRollingSync`, `requireProgressiveSyncs`, `maxDeletes`, `maxChangeAtOnce`, `maxChangeClustersAtOnce` (see *Policy gates*)',
    read(v, into) {
      if (!isObj(v)) return `expected a mapping, got ${describe(v)}`;
      for (const [k, x] of Object.entries(v)) {
        if (k === 'maxSyncAtOnce' || k === 'maxChangeAtOnce' || k === 'maxChangeClustersAtOnce') {
          const n = posInt(x);
          if (n === undefined) return { message: `policy.${k}: expected a positive integer, got ${describe(x)}`, at: [k] };
          into.policy[k] = n;
        } else if (k === 'requireRollingSync') {
          const list = isObj(x) ? [x] : x;
          if (!Array.isArray(list) || !list.every((s) => isObj(s) && Object.values(s).every((l) => typeof l === 'string'))) {
            return {
              message: `policy.requireRollingSync: expected label selectors such as {env: production}, got ${describe(x)}`,
              at: [k],
            };
          }
          into.policy.requireRollingSync = (list as Obj[]).map((s) => {
            const m: Record<string, string> = Object.create(null);
            for (const [lk, lv] of Object.entries(s)) put(m, lk, lv as string);
            return m;
          });
        } else if (k === 'maxDeletes') {
          if (typeof x !== 'number' || !Number.isInteger(x) || x < 0)
            return { message: `policy.maxDeletes: expected a whole number (0 or more), got ${describe(x)}`, at: [k] };
          into.policy.maxDeletes = x;
        } else if (k === 'requireProgressiveSyncs') {
          if (typeof x !== 'boolean')
            return { message: `policy.requireProgressiveSyncs: expected true or false, got ${describe(x)}`, at: [k] };
          into.policy.requireProgressiveSyncs = x;
        } else {
          return {
            message: `unknown policy "${k}" (known: maxSyncAtOnce, requireRollingSync, requireProgressiveSyncs, maxDeletes, maxChangeAtOnce, maxChangeClustersAtOnce)`,
            at: [k],
          };
        }
      }
      return undefined;
    },
  },
];
