/**
 * The controller's three inputs, read wherever a format holds them: its arguments (pflag, see
 * controllerArgs.ts), its environment variables (argoEnv.ts) and the ConfigMap-style keys of
 * `argocd-cmd-params-cm` (also Helm `configs.params`). Each becomes evidence of progressive syncs and
 * settings of the collector (collector.ts), at the level that decides precedence: flag > env > ConfigMap.
 */
import type { Json } from '../types';
import { isObj, own } from '../objects';
import { envBool, flagBool } from './argoEnv';
import { parseControllerArgs } from './controllerArgs';
import { at, bounded, scalarText, type Collector, type Place, type Site } from './collector';
import { CM_KEY, CONTROLLER_SETTINGS, ENV, FLAG, OLD_CM_KEY, OLD_ENV, OLD_FLAG, RENAMED, type EvidenceLevel } from './evidence';

/** Words that name a flag the model reads (for `bounded`). */
const namesFlag = (a: Json | undefined) => {
  const t = scalarText(a);
  return t !== undefined && /--(enable-|policy|allowed-scm|applicationset-namespaces)/.test(t);
};

/** A value as written, quoted; control characters (a file's trailing newline) shown escaped. */
const quote = (raw: string) => {
  const shown = raw.length > 80 ? `${raw.slice(0, 80)}…` : raw;
  // Control characters escaped (a file's trailing newline); a value with double quotes (an `envs:` line
  // keeps them) in single quotes, so the quotes the controller gets show.
  return /[\n\r\t]/.test(shown) ? JSON.stringify(shown) : shown.includes('"') ? `'${shown}'` : `"${shown}"`;
};

/** The flags the arguments are read for, each with whether it is a bool flag (controllerArgs.ts). */
const KNOWN_FLAGS: ReadonlyMap<string, boolean> = new Map<string, boolean>([
  ...CONTROLLER_SETTINGS.filter((st) => st.flag).map((st): [string, boolean] => [st.flag, 'bool' in st]),
  [FLAG, true],
  [OLD_FLAG, true],
]);
/** String slice flags: a repeated flag adds to the list (pflag stringSlice Set); any other: the last one wins. */
const SLICE_FLAGS = new Set(['--applicationset-namespaces', '--allowed-scm-providers']);

export function checkArgs(c: Collector, place: Place, site: Site, args: Json | undefined, who: string) {
  if (Array.isArray(args))
    readArgs(
      c,
      place,
      (i) => at(site, i),
      bounded(c, place, site, args, 500, `${who}: arguments`, namesFlag).map((a) => scalarText(a)),
      who,
    );
}

/** One argument string; `site` points at it. */
export function checkArg(c: Collector, place: Place, site: Site, arg: Json | undefined, who: string) {
  readArgs(c, place, () => site, [scalarText(arg)], who);
}

/** An argument list as pflag reads it (controllerArgs.ts); `siteOf(i)` points at its `i`th item. */
function readArgs(c: Collector, place: Place, siteOf: (item: number) => Site, items: (string | undefined)[], who: string) {
  const parsed = parseControllerArgs(items, KNOWN_FLAGS);
  // pflag sets a flag each time it is given: the last one wins, a string slice collects them all.
  const last = new Map<string, number>();
  parsed.forEach((p, i) => last.set(p.flag, i));
  const slices = new Map<string, string[]>();
  for (const p of parsed) if (SLICE_FLAGS.has(p.flag)) slices.set(p.flag, [...(slices.get(p.flag) ?? []), p.value]);
  parsed.forEach((p, i) => {
    if (last.get(p.flag) !== i) return;
    const st = CONTROLLER_SETTINGS.find((x) => x.flag === p.flag);
    if (st) c.setting(place, siteOf(p.item), st.name, 'flag', SLICE_FLAGS.has(p.flag) ? slices.get(p.flag)!.join(',') : p.value);
    // The replacement text of a fix is only offered where the item holds just this flag.
    const whole = items[p.flagItem]?.trim() === p.word && p.item === p.flagItem;
    const site = siteOf(p.flagItem);
    if (p.flag === FLAG) progressiveFlag(c, place, site, p, whole, who);
    else if (p.flag === OLD_FLAG)
      c.add(
        place,
        site,
        undefined,
        'ignored',
        `${who} passes ${p.word}: the flag was ${RENAMED} (an unknown flag stops the controller)`,
        whole ? FLAG : undefined,
      );
  });
}

/** `--enable-progressive-syncs`, bare or with a value (pflag bool parsing, argoEnv.ts). */
function progressiveFlag(
  c: Collector,
  place: Place,
  site: Site,
  p: { written: boolean; value: string; word: string },
  whole: boolean,
  who: string,
) {
  if (!p.written) return c.add(place, site, 'flag', 'enables', `${who} passes ${FLAG}`);
  const fix = whole ? FLAG : undefined;
  switchEvidence(
    c,
    place,
    site,
    'flag',
    flagBool(p.value),
    `${who} passes ${p.word}`,
    'not a boolean, the controller refuses to start',
    fix,
  );
}

/**
 * The evidence of one on/off switch the controller reads (a flag, a variable, a ConfigMap key): it
 * enables, it disables, or it is ignored as no boolean (`b` undefined), with `notBoolean` saying what the
 * controller does then. `fix` is offered where it is ignored or disables.
 */
function switchEvidence(
  c: Collector,
  place: Place,
  site: Site,
  level: EvidenceLevel,
  b: boolean | undefined,
  said: string,
  notBoolean: string,
  fix: string | undefined,
) {
  if (b === undefined) c.add(place, site, undefined, 'ignored', `${said}: ${notBoolean}`, fix);
  else c.add(place, site, level, b ? 'enables' : 'disables', said, b ? undefined : fix);
}

/** What Argo CD does with a variable or ConfigMap value that is not true/false (argoEnv.ts `envBool`). */
const FALLS_BACK = 'only true/false are recognised, the controller falls back to false';

export function checkEnv(c: Collector, place: Place, site: Site, env: Json | undefined, who: string) {
  if (Array.isArray(env))
    bounded(c, place, site, env, 500, `${who}: env entries`, (e) =>
      /^ARGOCD_APPLICATIONSET_CONTROLLER_/.test(String(own(e, 'name') ?? '')),
    ).forEach((e, i) => checkEnvVar(c, place, at(site, i), e, who));
}

/** One `{name, value}` entry; `site` points at the entry. */
export function checkEnvVar(c: Collector, place: Place, site: Site, e: Json | undefined, who: string) {
  const name = own(e, 'name');
  const st = name ? CONTROLLER_SETTINGS.find((x) => x.env === name) : undefined;
  const stValue = scalarText(own(e, 'value'));
  if (st && stValue !== undefined) c.setting(place, at(site, 'value'), st.name, 'env', stValue);
  if (name !== ENV && name !== OLD_ENV) return;
  const s = at(site, 'value');
  if (name === OLD_ENV) {
    c.add(place, s, undefined, 'ignored', `${who} sets ${OLD_ENV}: the variable was ${RENAMED}`);
    return;
  }
  const raw = scalarText(own(e, 'value'));
  if (raw === undefined) return; // valueFrom: the standard wiring from the ConfigMap
  switchEvidence(c, place, s, 'env', envBool(raw), `${who} sets ${ENV}="${raw}"`, FALLS_BACK, '"true"');
}

/** A map of ConfigMap-style keys (ConfigMap data, Helm configs.params). */
export function checkParams(c: Collector, place: Place, site: Site, data: Json | undefined, who: string, ignoredWhy?: string) {
  if (!isObj(data)) return;
  if (!ignoredWhy)
    for (const st of CONTROLLER_SETTINGS) {
      const value = Object.prototype.hasOwnProperty.call(data, st.cm) ? scalarText(data[st.cm]) : undefined;
      if (value !== undefined) c.setting({ ...place, slot: `params.${st.cm}` }, at(site, st.cm), st.name, 'configmap', value);
    }
  for (const key of [CM_KEY, OLD_CM_KEY]) {
    if (Object.prototype.hasOwnProperty.call(data, key)) checkParam(c, place, at(site, key), key, data[key], who, ignoredWhy);
  }
}

/** One ConfigMap-style key and value; `site` points at the value. Its Helm key is `params.<key>`. */
export function checkParam(c: Collector, outer: Place, site: Site, key: string, value: Json | undefined, who: string, ignoredWhy?: string) {
  const place: Place = { ...outer, slot: `params.${key}` };
  const st = CONTROLLER_SETTINGS.find((x) => x.cm === key);
  if (st && !ignoredWhy) c.setting(place, site, st.name, 'configmap', scalarText(value) ?? '');
  if (key !== CM_KEY && key !== OLD_CM_KEY) return;
  const raw = scalarText(value) ?? '';
  if (key === OLD_CM_KEY) c.add(place, site, undefined, 'ignored', `${who} sets ${key}: the key was ${RENAMED}`);
  else if (ignoredWhy) c.add(place, site, undefined, 'ignored', `${who} sets ${key}: ${quote(raw)}, but ${ignoredWhy}`);
  else switchEvidence(c, place, site, 'configmap', envBool(raw), `${who} sets ${key}: ${quote(raw)}`, FALLS_BACK, '"true"');
}

export const isControllerName = (n: string) => n === 'argocd-applicationset-controller' || n.endsWith('-applicationset-controller');

/** The containers of a pod spec: their command, args and env. */
export function checkPodSpec(c: Collector, place: Place, site: Site, pod: Json | undefined, who: string) {
  for (const list of ['containers', 'initContainers']) {
    const cs = own(pod, list);
    if (!Array.isArray(cs)) continue;
    cs.forEach((ct, i) => {
      const s = at(site, list, i);
      checkArgs(c, place, at(s, 'command'), own(ct, 'command'), who);
      checkArgs(c, place, at(s, 'args'), own(ct, 'args'), who);
      checkEnv(c, place, at(s, 'env'), own(ct, 'env'), who);
    });
  }
}
