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

/** `{service: name}` list elements. */
export const serviceElements = (services: readonly string[]) => services.map((service) => ({ service }));

export interface Step {
  /** Values of the `In` expression on the step's label. */
  values: string[];
  maxUpdate?: string | number;
}

/** `strategy:` RollingSync, one step per entry, each selecting `key In values` (flow style, as teams write it). */
export function rollingSyncBy(key: string, steps: readonly Step[]): string {
  return (
    '  strategy:\n    type: RollingSync\n    rollingSync:\n      steps:\n' +
    steps
      .map(
        (s) =>
          `        - matchExpressions: [{key: ${key}, operator: In, values: [${s.values.join(', ')}]}]\n` +
          (s.maxUpdate === undefined ? '' : `          maxUpdate: ${s.maxUpdate}\n`),
      )
      .join('')
  );
}
