/**
 * Pieces of ApplicationSet YAML that many tests write around their own template: the head, a minimal template spec, the cluster × list
 * matrix (the story's shape: a cluster generator selecting Secrets by label, combined with a list of
 * services) and a RollingSync strategy by one label. Block style, indented as under `spec:`.
 */

/** An ApplicationSet's first lines, through `spec:`'s template mode (goTemplate: true and namespace argocd unless told). */
export function appsetHead(name: string, o: { namespace?: string | null; goTemplate?: boolean; options?: string } = {}): string {
  const ns = o.namespace === undefined ? 'argocd' : o.namespace;
  return (
    `apiVersion: argoproj.io/v1alpha1\nkind: ApplicationSet\nmetadata:\n  name: ${name}\n${ns === null ? '' : `  namespace: ${ns}\n`}spec:\n` +
    (o.goTemplate === false ? '' : '  goTemplate: true\n') +
    (o.options ? `  goTemplateOptions: ${o.options}\n` : '')
  );
}

/** A template's `spec:` that any cluster accepts (project default, one source, the local cluster), 4 spaces deep. */
export const MINIMAL_TEMPLATE_SPEC = `    spec:
      project: default
      source:
        repoURL: https://example.com/repo.git
        targetRevision: HEAD
        path: apps
      destination:
        server: https://kubernetes.default.svc
        namespace: default
`;

/**
 * `- matrix:` of a cluster generator (matchLabels) and a list generator (`elements`, one map each),
 * as an item of `spec.generators` (4 spaces deep).
 */
export function clusterListMatrix(matchLabels: Record<string, string>, elements: readonly Record<string, string>[]): string {
  const labels = Object.entries(matchLabels).map(([k, v]) => `                  ${k}: ${v}\n`);
  const items = elements.map((e) =>
    Object.entries(e)
      .map(([k, v], i) => `${i ? '                  ' : '                - '}${k}: ${v}\n`)
      .join(''),
  );
  return (
    '    - matrix:\n        generators:\n          - clusters:\n              selector:\n                matchLabels:\n' +
    labels.join('') +
    '          - list:\n              elements:\n' +
    items.join('')
  );
}

/** `- list:` with block-style `elements` (one map each), as an item of `spec.generators` (4 spaces deep). */
export function listOf(elements: readonly Record<string, string>[]): string {
  const item = (e: Record<string, string>) =>
    Object.entries(e)
      .map(([k, v], i) => `${i ? '            ' : '          - '}${k}: ${v}\n`)
      .join('');
  return '    - list:\n        elements:\n' + elements.map(item).join('');
}

/** `- git:` with one `files` or `directories` pattern in flow style at revision HEAD, as an item of `spec.generators` (4 spaces deep, 2 when compact). */
export function gitGenerator(repoURL: string, kind: 'files' | 'directories', path: string, o: { compact?: boolean } = {}): string {
  const at = o.compact ? '  ' : '    ';
  return `${at}- git:\n${at}    repoURL: ${repoURL}\n${at}    revision: HEAD\n${at}    ${kind}: [{path: "${path}"}]\n`;
}

/** `{service: name}` list elements. */
export const serviceElements = (services: readonly string[]) => services.map((service) => ({ service }));

export interface Step {
  /** Values of the step's expression on the label. */
  values: string[];
  maxUpdate?: string | number;
  /** The expression's operator (default `In`). */
  operator?: string;
}

export interface RollingSyncStyle {
  /** `matchExpressions` as block maps (`- key: …` / `operator:` / `values:` lines) instead of one flow line. */
  block?: boolean;
  /** Sequences not indented under their key (`steps:` then `      - …`), as many hand-written files have them. */
  compact?: boolean;
  /** A `deletionOrder:` line after the type. */
  deletionOrder?: string;
}

/** Argo CD's Progressive-Syncs.md example steps on `envLabel`: dev at once, qa held (maxUpdate 0), prod 10% at a time. */
export const DOC_EXAMPLE_STEPS: readonly Step[] = [
  { values: ['env-dev'] },
  { values: ['env-qa'], maxUpdate: 0 },
  { values: ['env-prod'], maxUpdate: '10%' },
];

/** `strategy:` RollingSync, one step per entry, each selecting `key <operator> values` (flow style unless told). */
export function rollingSyncBy(key: string, steps: readonly Step[], o: RollingSyncStyle = {}): string {
  const item = o.compact ? '      ' : '        ';
  const inner = item + (o.compact ? '  ' : '    ');
  const step = (s: Step) => {
    const op = s.operator ?? 'In';
    const values = `[${s.values.join(', ')}]`;
    const selector = o.block
      ? `${item}- matchExpressions:\n${inner}- key: ${key}\n${inner}  operator: ${op}\n${inner}  values: ${values}\n`
      : `${item}- matchExpressions: [{key: ${key}, operator: ${op}, values: ${values}}]\n`;
    return selector + (s.maxUpdate === undefined ? '' : `${item}  maxUpdate: ${s.maxUpdate}\n`);
  };
  const order = o.deletionOrder ? `    deletionOrder: ${o.deletionOrder}\n` : '';
  return `  strategy:\n    type: RollingSync\n${order}    rollingSync:\n      steps:\n` + steps.map(step).join('');
}

/**
 * `template:` (2 spaces deep, as under `spec:`): the Application's name, any more `metadata` lines
 * (6 spaces deep), project default and one source and destination written as flow maps.
 */
export function flowTemplate(name: string, source: string, destination: string, metadata = ''): string {
  return `  template:\n    metadata:\n      name: ${name}\n${metadata}    spec:\n      project: default\n      source: {${source}}\n      destination: {${destination}}\n`;
}

/** `metadata` lines for flowTemplate: the Application's tier label, copied from its cluster Secret's. */
export const TIER_LABEL = `      labels:\n        tier: '{{ index .metadata.labels "tier" }}'\n`;

/** The local cluster as a flow destination's server. */
export const LOCAL = 'server: https://kubernetes.default.svc';

/** An Application as the controller writes it: project default, the given source and destination, Argo CD's default finalizer. */
export function generatedApp(name: string, namespace: string, source: Record<string, string>, destination: Record<string, string>) {
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Application',
    metadata: { name, namespace, finalizers: ['resources-finalizer.argocd.argoproj.io'] },
    spec: { project: 'default', source, destination },
  };
}

/**
 * One ApplicationSet named "long" with a list generator of `elements` elements of two keys each (two
 * lines an element): the large document of the load test and the benchmark's responsiveness row.
 */
export function longListAppSet(elements: number): string {
  return `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata:
  name: long
spec:
  goTemplate: true
  generators:
    - list:
        elements:
${Array.from({ length: elements }, (_, i) => `          - name: e${i}\n            url: https://c${i % 50}.example.com`).join('\n')}
  template:
    metadata:
      name: 'app-{{ .name }}'
    spec:
      project: default
      source: {repoURL: https://example.com/r.git, targetRevision: main, path: 'apps/{{ .name }}'}
      destination: {server: '{{ .url }}', namespace: x}
`;
}

/** A minimal valid ApplicationSet (named test) with `spec` lines spliced in (indented by 2 under spec). */
export function appset(specExtra: string, opts: { goTemplate?: boolean; generators?: string } = {}): string {
  return `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata:
  name: test
spec:
${opts.goTemplate ? '  goTemplate: true\n' : ''}  generators:
${opts.generators ?? '  - list:\n      elements:\n      - name: a'}
  template:
    metadata:
      name: '{{name}}'
${MINIMAL_TEMPLATE_SPEC}${specExtra}`;
}

/** The codes of some findings, sorted. */
export const codes = (ds: readonly { code: string }[]) => ds.map((d) => d.code).sort();

/** `generators` (for appset's opts) of one matrix: a matrix whose children are `inner` (YAML items 10 spaces deep), then an empty list. */
export const nestedMatrix = (inner: string) =>
  `  - matrix:\n      generators:\n      - matrix:\n          generators:\n${inner}      - list:\n          elements: []`;

/**
 * A git generator over another repository (example.com): out of reach of the web worker and of a virtual
 * workspace, which say so once on the generator; the Node server gives its desktop advice there.
 */
export const OTHER_REPOSITORY_APPSET = `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata:
  name: elsewhere
spec:
  goTemplate: true
  generators:
    - git:
        repoURL: https://example.com/other/config.git
        revision: HEAD
        directories:
          - path: apps/*
  template:
    metadata:
      name: '{{ .path.basename }}'
    spec:
      project: default
      source:
        repoURL: https://example.com/other/config.git
        path: '{{ .path.path }}'
      destination:
        server: https://kubernetes.default.svc
        namespace: apps
`;
