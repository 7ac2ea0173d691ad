/**
 * The hostile templates of issue 38's probe: each builds a value far past what any real template
 * builds (V8 aborted, or the process took minutes and gigabytes, before every built value was
 * charged). `probeAppSet` puts one in an ApplicationSet's template as a user writes it; `probeChart`
 * is a Helm chart whose template runs the first one when the chart is rendered for the preview.
 * `peakRssPreload` is a `--require` module that writes the process's peak RSS and CPU time on exit.
 */
import * as path from 'node:path';
import { appsetHead, MINIMAL_TEMPLATE_SPEC } from './appsets';

/** A string of 1 MiB built in the template. */
const MIB = '{{ $x := repeat 1048576 "x" }}';

/** Name → [template, the function the limit stops]. */
export const TEMPLATE_PROBES: Record<string, [string, string]> = {
  replace: ['{{ $x := "xxxxxxxx" }}{{ range until 40 }}{{ $x = replace "x" "xx" $x }}{{ end }}', 'replace'],
  randAlphaNum: ['{{ randAlphaNum 100000000 }}', 'randAlphaNum'],
  wrapWith: [`${MIB}{{ wrapWith 1 "yyyyyyyyyyyyyyyy" $x | len }}`, 'wrapWith'],
  js: [
    '{{ $x := "<<<<<<<<" }}{{ range until 17 }}{{ $x = replace "<" "<<" $x }}{{ end }}{{ range until 10 }}{{ $x = js $x }}{{ end }}',
    'js',
  ],
  splitList: [`${MIB}{{ $x = cat $x $x }}{{ splitList "" $x | len }}`, 'splitList'],
  b64enc: ['{{ $x := "xxxxxxxx" }}{{ range until 60 }}{{ $x = b64enc $x }}{{ end }}{{ len $x }}', 'b64enc'],
  repeat: ['{{ repeat 100000000 "xxxxxxxx" | len }}', 'repeat'],
  seq: ['{{ seq 1 10000000 | len }}', 'seq'],
  printf: ['{{ printf (repeat 100 "%1000000[1]d") 1 | len }}', 'printf'],
  cat: [`${MIB}{{ range until 30 }}{{ $x = cat $x $x }}{{ end }}{{ len $x }}`, 'cat'],
  join: [`${MIB}{{ $l := list $x }}{{ range until 10 }}{{ $l = concat $l $l }}{{ end }}{{ join "," $l | len }}`, 'join'],
  regexReplaceAll: [`${MIB}{{ regexReplaceAll "x" $x "yyyyyyyy" | len }}`, 'regexReplaceAll'],
  until: ['{{ $l := list }}{{ range until 1000 }}{{ $l = append $l (until 1000000) }}{{ end }}{{ len $l }}', 'until'],
};

/** An ApplicationSet (one list element) whose template's annotation runs `template`. */
export function probeAppSet(name: string, template: string): string {
  return `${appsetHead(name.toLowerCase())}  generators:
    - list:
        elements:
          - name: a
  template:
    metadata:
      name: '{{ .name }}'
      annotations:
        probe: '${template.replaceAll("'", "''")}'
${MINIMAL_TEMPLATE_SPEC}`;
}

/** A Helm chart (relative path → text) whose ApplicationSet template runs the `replace` probe when Helm renders it. */
export function probeChart(): Record<string, string> {
  return {
    'charts/apps/Chart.yaml': 'apiVersion: v2\nname: apps\nversion: 0.1.0\n',
    'charts/apps/values.yaml': 'seed: xxxxxxxx\n',
    'charts/apps/templates/appset.yaml': `{{- $x := .Values.seed }}{{ range until 40 }}{{ $x = replace "x" "xx" $x }}{{ end -}}
apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata:
  name: {{ .Chart.Name }}
spec:
  generators:
  - list:
      elements:
      - env: dev
  template:
    metadata:
      name: '{{ "{{env}}" }}-web'
    spec:
      project: default
      source: {repoURL: https://example.com/r.git, targetRevision: HEAD, path: p}
      destination: {server: https://kubernetes.default.svc, namespace: ns}
`,
  };
}

/** `node --require <this> …` writes `{ maxRssMB, cpuMs }` as JSON to $APPSET_PEAK_FILE when the process exits. */
export const peakRssPreload = path.join(__dirname, 'peakRss.cjs');

export interface Peak {
  maxRssMB: number;
  cpuMs: number;
}
