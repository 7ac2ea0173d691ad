/**
 * The documents and repositories the benchmark measures, generated (never copied from real repositories)
 * to reproduce the shapes teams write: a small list ApplicationSet, one with a long list generator,
 * a file of many ApplicationSets, a very long file, and a GitOps repository of 1,000 YAML files
 * (Kustomize bases and overlays, Helm values, cluster Secrets, Argo CD configuration, ApplicationSets).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { clusterSecret, cmdParamsCm } from '../../test/helpers/clusters';
import { appsetHead } from '../../test/helpers/appsets';

const header = (name: string) => appsetHead(name, { options: '["missingkey=error"]' });

const template = (path: string) => `  template:
    metadata:
      name: '{{ .service }}-{{ .env }}'
      labels:
        team: '{{ .team }}'
    spec:
      project: default
      source:
        repoURL: https://git.example.com/platform/deploy.git
        targetRevision: main
        path: '${path}'
      destination:
        server: https://kubernetes.default.svc
        namespace: '{{ .service }}-{{ .env }}'
      syncPolicy:
        automated: {prune: true, selfHeal: true}
        syncOptions: [CreateNamespace=true]
`;

/** About 1 KiB: a list generator of three elements. */
export function small(): string {
  return `${header('guestbook')}  generators:
    - list:
        elements:
          - {service: guestbook, env: dev, team: web}
          - {service: guestbook, env: staging, team: web}
          - {service: guestbook, env: prod, team: web}
${template('apps/{{ .service }}/overlays/{{ .env }}')}`;
}

/** About 111 KiB: a list generator of 540 elements (each with a few values, as inventories do). */
export function longList(n = 540): string {
  const els: string[] = [];
  for (let i = 0; i < n; i++) {
    els.push(`          - service: service-${String(i).padStart(3, '0')}
            env: ${['dev', 'staging', 'prod'][i % 3]}
            team: team-${i % 17}
            image: registry.example.com/plat/service-${i}:1.${i % 50}.${i % 7}
            replicas: "${1 + (i % 5)}"
            owner: owner-${i % 23}@example.io`);
  }
  return `${header('services')}  generators:
    - list:
        elements:
${els.join('\n')}
${template('apps/{{ .service }}/overlays/{{ .env }}')}`;
}

/**
 * The 111 KiB ApplicationSet with one error deep down: its 501st list element lacks the `team` key
 * the template reads under `missingkey=error`, so only rendering that element finds it (an answer
 * without the expansion would be an empty list).
 */
export function deepError(): string {
  const text = longList();
  const at = text.indexOf('          - service: service-500\n');
  const team = text.indexOf('            team: ', at);
  return text.slice(0, team) + text.slice(text.indexOf('\n', team) + 1);
}

/** 50 ApplicationSets in one file: list, cluster and matrix generators. */
export function manyAppSets(n = 50): string {
  const docs: string[] = [];
  for (let i = 0; i < n; i++) {
    const gen =
      i % 5 === 0
        ? `  generators:
    - clusters:
        selector:
          matchLabels: {env: prod}
        values: {service: svc-${i}, env: prod, team: team-${i % 7}}
`
        : i % 5 === 1
          ? `  generators:
    - matrix:
        generators:
          - list:
              elements: [{service: svc-${i}, team: team-${i % 7}}]
          - list:
              elements: [{env: dev}, {env: staging}, {env: prod}]
`
          : `  generators:
    - list:
        elements:
${Array.from({ length: 6 }, (_, j) => `          - {service: svc-${i}-${j}, env: ${['dev', 'prod'][j % 2]}, team: team-${i % 7}}`).join('\n')}
`;
    // Cluster generators reach their values under .values and the cluster under .name.
    const tmpl =
      i % 5 === 0
        ? template(`apps/svc-${i}/{{ .env }}`)
            .replace(/\.service/g, '.values.service')
            .replace(/\.env/g, '.name')
            .replace(/\.team/g, '.values.team')
        : template(`apps/svc-${i}/{{ .env }}`);
    docs.push(header(`appset-${i}`) + gen + tmpl);
  }
  return docs.join('---\n');
}

/**
 * About 50,000 lines: an ApplicationSet followed by the manifests it sits with in an install bundle
 * (ConfigMaps and Deployments), the way rendered "all-in-one" files are committed.
 */
export function hugeFile(lines = 50000): string {
  const parts: string[] = [longList(60)];
  let count = parts[0].split('\n').length;
  for (let i = 0; count < lines; i++) {
    const data = Array.from({ length: 20 }, (_, j) => `  key-${j}.properties: "value ${i}-${j} with some text"`).join('\n');
    const doc = `apiVersion: v1
kind: ConfigMap
metadata:
  name: config-${i}
  namespace: platform
  labels: {app.kubernetes.io/name: config-${i}, app.kubernetes.io/part-of: platform}
data:
${data}
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: worker-${i}
  namespace: platform
spec:
  replicas: 2
  selector:
    matchLabels: {app: worker-${i}}
  template:
    metadata:
      labels: {app: worker-${i}}
    spec:
      containers:
        - name: worker
          image: registry.example.com/worker:${i}
          args: [--queue=q-${i}, --concurrency=4]
          resources: {requests: {cpu: 100m, memory: 128Mi}}
`;
    parts.push(doc);
    count += doc.split('\n').length;
  }
  return parts.join('---\n');
}

function put(root: string, rel: string, text: string): void {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), text);
}

/**
 * A GitOps repository of `total` YAML files: Kustomize bases and overlays per service, Helm values,
 * cluster Secrets, Argo CD's own configuration (progressive syncs enabled through
 * argocd-cmd-params-cm) and a folder of ApplicationSets. Returns the ApplicationSet files.
 */
export function gitopsRepo(root: string, total = 1000): string[] {
  mkdirSync(join(root, '.git'), { recursive: true });
  writeFileSync(join(root, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  put(
    root,
    'argocd/kustomization.yaml',
    'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nnamespace: argocd\nresources:\n  - https://raw.githubusercontent.com/argoproj/argo-cd/v3.1.0/manifests/install.yaml\npatches:\n  - path: argocd-cmd-params-cm.yaml\n',
  );
  put(root, 'argocd/argocd-cmd-params-cm.yaml', cmdParamsCm('true', 'argocd'));
  let files = 2;
  for (let c = 0; c < 8; c++) {
    put(
      root,
      `clusters/prod-${c}.yaml`,
      clusterSecret({
        name: `prod-${c}`,
        server: `https://prod-${c}.k8s.example.com`,
        labels: { env: 'prod', tier: c === 0 ? 'canary' : 'main' },
        opaque: true,
      }),
    );
    files++;
  }
  const appsets: string[] = [];
  for (let a = 0; a < 40; a++) {
    const rel = `appsets/team-${a}.yaml`;
    put(
      root,
      rel,
      a % 4 === 0
        ? manyAppSets(1).replace('appset-0', `team-${a}`)
        : small()
            .replace('guestbook', `team-${a}`)
            .replace(/guestbook/g, `svc-${a}`),
    );
    appsets.push(join(root, rel));
    files++;
  }
  for (let s = 0; files < total; s++) {
    const base = `apps/svc-${s}`;
    const batch: [string, string][] = [
      [
        `${base}/base/kustomization.yaml`,
        `apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [deployment.yaml, service.yaml]\n`,
      ],
      [
        `${base}/base/deployment.yaml`,
        `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: svc-${s}\nspec:\n  replicas: 1\n  selector:\n    matchLabels: {app: svc-${s}}\n  template:\n    metadata:\n      labels: {app: svc-${s}}\n    spec:\n      containers:\n        - name: app\n          image: registry.example.com/svc-${s}:1.0.0\n          ports: [{containerPort: 8080}]\n          env:\n            - {name: LOG_LEVEL, value: info}\n`,
      ],
      [
        `${base}/base/service.yaml`,
        `apiVersion: v1\nkind: Service\nmetadata:\n  name: svc-${s}\nspec:\n  selector: {app: svc-${s}}\n  ports: [{port: 80, targetPort: 8080}]\n`,
      ],
      [
        `${base}/overlays/dev/kustomization.yaml`,
        `apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [../../base]\npatches:\n  - path: replicas.yaml\n`,
      ],
      [`${base}/overlays/dev/replicas.yaml`, `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: svc-${s}\nspec:\n  replicas: 1\n`],
      [
        `${base}/overlays/prod/kustomization.yaml`,
        `apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [../../base]\npatches:\n  - path: replicas.yaml\n`,
      ],
      [`${base}/overlays/prod/replicas.yaml`, `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: svc-${s}\nspec:\n  replicas: 3\n`],
      [
        `${base}/values.yaml`,
        `replicaCount: 2\nimage:\n  repository: registry.example.com/svc-${s}\n  tag: "1.0.0"\nresources:\n  limits: {cpu: 500m, memory: 256Mi}\ningress:\n  enabled: ${s % 2 === 0}\n  hosts: [svc-${s}.example.com]\n`,
      ],
    ];
    for (const [rel, text] of batch) {
      if (files >= total) break;
      put(root, rel, text);
      files++;
    }
  }
  return appsets;
}

/** `n` ApplicationSet files (a mix of the shapes above) in one folder. */
export function appsetFolder(root: string, n = 1000): void {
  for (let i = 0; i < n; i++) {
    const text =
      i % 10 === 0
        ? manyAppSets(1).replace('appset-0', `set-${i}`)
        : small()
            .replace('guestbook', `set-${i}`)
            .replace(/guestbook/g, `svc-${i}`);
    put(root, `appsets/set-${String(i).padStart(4, '0')}.yaml`, text);
  }
}
