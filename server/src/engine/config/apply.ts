/**
 * What the repository configuration does to one file's analysis: the settings it runs with, whether
 * the file is ignored, and — after every feature has reported — per-code severities (`off` drops a
 * finding) and inline suppressions (`# appset-tools: ignore <code> -- <why>` on or above the line).
 */
import { DEFAULT_SETTINGS, type EngineSettings } from '../host';
import type { EngineDiagnostic, Severity } from '../types';
import type { RepoConfig } from './types';
import { finding } from '../diagnostics/codes';
import { findSuppressions, type Suppression } from './suppress';
import { lineIndex } from '../yaml';
import { doublestarMatch } from '../rules/globs';

/**
 * The file's settings: a value the editor or a CLI flag set away from its default wins (someone chose
 * it); otherwise the config file's value; otherwise the default. Inventory files from both are used.
 */
export function effectiveSettings(host: EngineSettings, cfg: RepoConfig): EngineSettings {
  if (!cfg.path) return host;
  const out: EngineSettings = { ...host };
  const c = cfg.settings;
  const isDefault = <K extends keyof EngineSettings>(k: K) => JSON.stringify(host[k]) === JSON.stringify(DEFAULT_SETTINGS[k]);
  for (const k of Object.keys(c) as (keyof EngineSettings)[]) {
    if (k === 'inventoryFiles') out.inventoryFiles = [...new Set([...host.inventoryFiles, ...(c.inventoryFiles ?? [])])];
    else if (k === 'repoMappings') out.repoMappings = mergeMaps(c.repoMappings ?? {}, host.repoMappings);
    else if (isDefault(k)) (out as unknown as Record<string, unknown>)[k] = c[k];
  }
  return out;
}

function mergeMaps(low: Record<string, string>, high: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = Object.create(null);
  for (const m of [low, high])
    for (const [k, v] of Object.entries(m))
      Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  return out;
}

const matchers = new WeakMap<RepoConfig, (p: string) => boolean>();

/** True when the config's `ignore` list names this file (or a folder above it). */
export function isIgnored(path: string | undefined, cfg: RepoConfig): boolean {
  if (!path || !cfg.ignore.length) return false;
  let m = matchers.get(cfg);
  if (!m) {
    const globs = cfg.ignore.flatMap((p) => (p.endsWith('/**') ? [p] : [p, p.replace(/\/$/, '') + '/**']));
    // doublestar's rules, matched in linear time (a pattern cannot stall a lint: `rules/globs.ts`).
    const each = globs.map(doublestarMatch);
    m = (p: string) => each.some((f) => f(p));
    matchers.set(cfg, m);
  }
  return m(path);
}

/** A finding as the CLI reports it: possibly suppressed in the source. */
export interface Finding extends EngineDiagnostic {
  /** Set when an inline `appset-tools: ignore` comment suppresses it (kept for SARIF, not counted). */
  suppressed?: { justification: string; span: { start: number; end: number } };
}

/** The severity the config gives `code` (exact code first, then `area/*`), or undefined. */
export function severityFor(code: string, cfg: RepoConfig): Severity | 'off' | undefined {
  return cfg.severity.get(code) ?? cfg.severity.get(code.split('/')[0] + '/*') ?? cfg.severity.get('*');
}

/** `d` with the severity the user's config gives its code, or undefined when the config turns it off. */
export function withUserSeverity<D extends EngineDiagnostic>(d: D, cfg: RepoConfig): D | undefined {
  const severity = severityFor(d.code, cfg);
  if (severity === 'off') return undefined;
  return severity ? { ...d, severity } : d;
}

/**
 * Applies severities and inline suppressions to a file's findings. Findings about the suppression
 * comments themselves (no reason, unknown code, suppressing nothing) are added as `config/suppression`.
 */
export function applyConfig(
  diags: EngineDiagnostic[],
  text: string,
  cfg: RepoConfig,
  knownCode: (c: string) => boolean,
  comments: (text: string) => readonly number[],
): Finding[] {
  const out: Finding[] = [];
  const sups = findSuppressions(text, comments);
  const used = new Set<Suppression>();
  // Line numbers only where a suppression comment could apply (the text's line starts are a
  // 100 KiB array on a 111 KiB document, made again on every keystroke otherwise).
  const lineOf = sups.length ? lineIndex(text) : undefined;
  for (const d of diags) {
    const sev = severityFor(d.code, cfg);
    if (sev === 'off') continue;
    const f: Finding = sev && sev !== d.severity ? { ...d, severity: sev } : { ...d };
    const line = lineOf ? lineOf(d.span.start) : -1;
    const s = sups.find(
      (x) => x.appliesTo.includes(line) && x.codes.some((c) => c === d.code || (c.endsWith('/*') && d.code.startsWith(c.slice(0, -1)))),
    );
    if (s && s.reason) {
      used.add(s);
      f.suppressed = { justification: s.reason, span: s.span };
    }
    out.push(f);
  }
  for (const s of sups) {
    const unknown = s.codes.filter((c) => !c.endsWith('/*') && !knownCode(c));
    if (!s.codes.length)
      out.push(supFinding(s, false, 'this "appset-tools: ignore" comment names no code; write "# appset-tools: ignore <code> -- <why>"'));
    else if (unknown.length)
      out.push(
        supFinding(s, false, `unknown code ${unknown.map((c) => `"${c}"`).join(', ')} in this suppression comment; it suppresses nothing`),
      );
    else if (!s.reason)
      out.push(
        supFinding(
          s,
          false,
          'this suppression gives no reason, so it is not applied; add one after "--", e.g. "-- canary cluster, reviewed by the platform team"',
        ),
      );
    else if (!used.has(s))
      out.push(supFinding(s, true, `nothing here is reported as ${s.codes.join(', ')} any more; this suppression comment can go`));
  }
  return out;
}

function supFinding(s: Suppression, unused: boolean, message: string): Finding {
  return finding('config/suppression', message, s, { variant: unused });
}
