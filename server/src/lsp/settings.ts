/** The `appsetTools.*` settings as the server uses them, read defensively (clients send anything). */
import { DEFAULT_SETTINGS, isVersionSetting, type EngineSettings, type InstanceMapping } from '@appset-tools/engine';
import { isProgressiveSyncOverride, isWholeNumberSetting, SETTINGS, type WholeNumberSetting } from '@appset-tools/protocol/settingsTable';

export interface ServerSettings {
  validate: boolean;
  debounceMs: number;
  /** Report YAML syntax errors in ApplicationSet files (off when another YAML server reports them). */
  yamlSyntax: boolean;
  engine: EngineSettings;
}

/** The defaults of the settings table (settingsTable.ts), which package.json and the docs show too. */
export const DEFAULT_SERVER_SETTINGS: ServerSettings = {
  validate: SETTINGS['validate.enable'].default,
  debounceMs: SETTINGS['validate.debounceMs'].default,
  yamlSyntax: SETTINGS['validate.yamlSyntax'].default,
  engine: { ...DEFAULT_SETTINGS },
};

export function readSettings(raw: unknown): ServerSettings {
  const o = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const v = (o.validate && typeof o.validate === 'object' ? o.validate : {}) as Record<string, unknown>;
  // A number below the table's minimum is not used (VS Code checks it too; other editors send anything).
  const num = (x: unknown, d: number, min: number) => (typeof x === 'number' && Number.isFinite(x) && x >= min ? x : d);
  // The whole-number settings: the table's one rule, as `.appset-tools.yaml` and the CLI flags read them.
  const whole = (name: WholeNumberSetting) => (isWholeNumberSetting(name, o[name]) ? o[name] : DEFAULT_SETTINGS[name]);
  const strings = (x: unknown) => (Array.isArray(x) ? x.filter((s): s is string => typeof s === 'string') : []);
  const map = (x: unknown) => {
    const out: Record<string, string> = {};
    if (x && typeof x === 'object' && !Array.isArray(x)) {
      for (const [k, val] of Object.entries(x))
        if (typeof val === 'string') Object.defineProperty(out, k, { value: val, enumerable: true, writable: true, configurable: true });
    }
    return out;
  };
  const ps = o.progressiveSyncs;
  return {
    validate: v.enable !== false,
    debounceMs: num(v.debounceMs, DEFAULT_SERVER_SETTINGS.debounceMs, SETTINGS['validate.debounceMs'].minimum),
    yamlSyntax: v.yamlSyntax !== false,
    engine: {
      ...DEFAULT_SETTINGS,
      maxApplications: whole('maxApplications'),
      inventoryFiles: strings(o.inventoryFiles),
      repoMappings: map(o.repoMappings),
      progressiveSyncs: isProgressiveSyncOverride(ps) ? ps : 'auto',
      newGitFileGlobbing: o.newGitFileGlobbing === true,
      blastRadiusThreshold: whole('blastRadiusThreshold'),
      argocdVersion: typeof o.argocdVersion === 'string' && isVersionSetting(o.argocdVersion.trim()) ? o.argocdVersion.trim() : 'auto',
      instances: readInstances(o.instances),
      maxWaveSize: whole('maxWaveSize'),
      minutesPerSync: whole('minutesPerSync'),
      impactBaseline:
        typeof o.impactBaseline === 'string' && o.impactBaseline.trim() ? o.impactBaseline.trim() : DEFAULT_SETTINGS.impactBaseline,
    },
  };
}

/** `appsetTools.instances`: [{ name, applicationSets: [globs], config: [paths], progressiveSyncs? }]. */
export function readInstances(x: unknown): InstanceMapping[] {
  if (!Array.isArray(x)) return [];
  const strings = (v: unknown) =>
    Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string' && s.length > 0) : typeof v === 'string' && v ? [v] : [];
  const out: InstanceMapping[] = [];
  x.slice(0, 100).forEach((m, i) => {
    if (!m || typeof m !== 'object' || Array.isArray(m)) return;
    const r = m as Record<string, unknown>;
    const applicationSets = strings(r.applicationSets);
    if (!applicationSets.length) return;
    const ps = r.progressiveSyncs;
    out.push({
      name: typeof r.name === 'string' && r.name ? r.name : `instance ${i + 1}`,
      applicationSets,
      config: strings(r.config),
      ...(ps === 'enabled' || ps === 'disabled' ? { progressiveSyncs: ps } : {}),
    });
  });
  return out;
}
