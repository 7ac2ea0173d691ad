/**
 * A chart template that prints a list or a map of the chart's values straight into the YAML:
 * `directories: '{{ $.Values.source.directories }}'`. Helm's engine executes Go's text/template,
 * which prints a value that is not a string with fmt (text/template exec.go printValue → fmt.Fprint):
 * a list becomes `[a b]`, a map `map[k:v]` (keys sorted), a list of maps `[map[path:apps/*]]`. Helm does
 * not complain; the ApplicationSet then holds that text where a list or an object belongs, which the
 * API server rejects against the CRD (or keeps as a meaningless string in a free-form field). The
 * chart's way is `toYaml` (pkg/engine/funcs.go) with `nindent`, outside quotes.
 *
 * Only what the chart's own `values.yaml` says is known (like the render, service/helmRender.ts):
 * a field whose default is a non-empty list or a map, printed by an action that is the bare field
 * (`{{ .Values.x }}`, `{{- $.Values.x -}}`), with no function or pipe that would turn it into text.
 */
import type { EngineDiagnostic } from '../types';
import { finding } from '../diagnostics/codes';
import { scanActions } from './templateActions';
import { isObj, ownPath } from '../objects';

const MAX_FINDINGS = 50;
const MAX_PRINTED = 80;

export function helmPrintedCollectionFindings(text: string, values: unknown): EngineDiagnostic[] {
  if (!isObj<unknown>(values)) return [];
  const out: EngineDiagnostic[] = [];
  // Inside range/with (and define/block) `.` is something else; `$` stays the root.
  const blocks: boolean[] = [];
  for (const a of scanActions(text).actions) {
    if (out.length >= MAX_FINDINGS || !a.closed) break;
    const body = a.body.replace(/^-\s/, '').replace(/\s-$/, '').trim();
    const keyword = /^(if|else|end|range|with|define|block)\b/.exec(body)?.[1];
    if (keyword === 'end') blocks.pop();
    else if (keyword && keyword !== 'else') blocks.push(keyword !== 'if');
    if (keyword) continue;
    const m = /^(\$?)\.Values((?:\.[A-Za-z_][\w]*)+)$/.exec(body);
    if (!m || (!m[1] && blocks.some((rebinds) => rebinds))) continue;
    const path = m[2].slice(1).split('.');
    const value = ownPath(values, path);
    const kind = Array.isArray(value) && value.length ? 'list' : isObj<unknown>(value) ? 'map' : undefined;
    if (!kind) continue;
    const action = text.slice(a.start, a.end);
    const key = path[path.length - 1];
    const indent = (/^[ \t]*/.exec(text.slice(a.lineStart, a.start))?.[0].length ?? 0) + 2;
    out.push(
      finding(
        'helm/printed-collection',
        `Helm prints ${action} as Go's text for a ${kind}, ${printed(value)}, not as YAML: the ApplicationSet gets that string where the ${kind} of values.yaml's ${path.join('.')} was meant (the API server rejects a string where the CRD wants a ${kind === 'list' ? 'list' : 'object'}). Write it as YAML, outside quotes: ${key}: {{- toYaml ${m[1]}.Values.${path.join('.')} | nindent ${indent} }}`,
        { start: a.start, end: a.end },
      ),
    );
  }
  return out;
}

/** fmt's %v of a decoded YAML value, as Go prints it (maps with sorted keys), cut short. */
function printed(v: unknown): string {
  const go = (x: unknown, budget: { n: number }): string => {
    if (--budget.n < 0) return '…';
    if (Array.isArray(x)) return `[${x.map((e) => go(e, budget)).join(' ')}]`;
    if (isObj<unknown>(x))
      return `map[${Object.keys(x)
        .sort()
        .map((k) => `${k}:${go(x[k], budget)}`)
        .join(' ')}]`;
    if (x === null || x === undefined) return '<nil>';
    return String(x);
  };
  const s = go(v, { n: 40 });
  return s.length > MAX_PRINTED ? s.slice(0, MAX_PRINTED - 1) + '…' : s;
}
