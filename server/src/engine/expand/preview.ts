/**
 * The preview document: every generated Application as multi-document YAML, in the order the
 * controller writes them (sorted by name, `applicationset_controller.go`), with a header that says
 * how exact the preview is.
 */
import { stringifyYaml } from '../yaml/parse';
import type { Expansion } from './types';
import { compareGoStrings } from '../rules/order';

export interface PreviewOptions {
  /**
   * The controller runs a RollingSync for this ApplicationSet: it writes every Application with
   * `syncPolicy.automated.enabled: false` when the template has an `automated` block (prune and
   * selfHeal kept) and triggers the syncs itself — argo-cd
   * `applicationset/progressivesync/progressive_sync.go` (`SyncDesiredApplications`, `disableAutomatedSync`).
   */
  rollingSync?: boolean;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);

/** The Application as the controller writes it under an active RollingSync (a copy; the input is untouched). */
export function withAutomatedDisabled(app: unknown): unknown {
  const spec = isObj(app) ? app.spec : undefined;
  const policy = isObj(spec) ? spec.syncPolicy : undefined;
  const automated = isObj(policy) ? policy.automated : undefined;
  if (!isObj(app) || !isObj(spec) || !isObj(policy) || !isObj(automated)) return app;
  return { ...app, spec: { ...spec, syncPolicy: { ...policy, automated: { ...automated, enabled: false } } } };
}

export function previewText(appsetName: string, exp: Expansion, opts: PreviewOptions = {}): string {
  const head: string[] = [
    `# Preview of ApplicationSet "${appsetName}": ${exp.apps.length} Application${exp.apps.length === 1 ? '' : 's'}`,
    '# Generated offline by ApplicationSet Tools; read-only, updates as you edit.',
  ];
  if (!exp.exact) head.push('# NOT EXACT: the controller may produce something different (see notes below).');
  if (exp.capped) head.push('# STOPPED at the appsetTools.maxApplications cap: only the first Applications are shown.');
  const disabled = opts.rollingSync ? exp.apps.filter((a) => withAutomatedDisabled(a.app) !== a.app).length : 0;
  if (disabled)
    head.push(
      `# RollingSync is active: the controller writes syncPolicy.automated.enabled: false on ${disabled === exp.apps.length ? 'every Application' : `${disabled} Applications`} and syncs them step by step (shown so below).`,
    );
  for (const n of exp.notes) head.push(`# note: ${n}`);
  for (const p of exp.problems) if (p.severity === 'error') head.push(`# error: ${p.message.replace(/\n/g, ' ')}`);
  const apps = [...exp.apps].sort((a, b) => compareGoStrings(a.name, b.name));
  const docs = apps.map((a) => {
    const prefix = a.invalid?.length ? a.invalid.map((m) => `# SKIPPED by the controller: ${m}\n`).join('') : '';
    return prefix + stringifyYaml(opts.rollingSync ? withAutomatedDisabled(a.app) : a.app);
  });
  return head.join('\n') + '\n' + (docs.length ? '---\n' + docs.join('---\n') : '# (no Applications)\n');
}
