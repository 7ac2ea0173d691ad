/**
 * Argo CDs the repository does not install. The repository's installs are not the only Argo CDs that can
 * run its ApplicationSets: every ApplicationSet controller processes the ApplicationSets of its own
 * namespace (Argo CD v3.5.1 cmd/argocd-applicationset-controller/commands/applicationset_controller.go
 * appends it to `applicationsetcontroller.namespaces`), and Argo CD Applications kept in a namespace show
 * that an Argo CD runs there — unless an install of the repository runs in that namespace, or lets
 * Applications live there (`application.namespaces`, util/security/application_namespaces.go
 * IsNamespaceEnabled). Such an Argo CD is installed outside the repository: its settings are not read
 * here, so what it does with an ApplicationSet is unknown, never "not watched" or "off".
 */
import type { WorkspaceScan } from './scan';
import { namespaceWatched, type Instance } from './instances';
import { envStrings } from './argoEnv';
import { relativePath } from '../paths';

/** The namespaces an install lets Applications live in besides its own (`application.namespaces`, ConfigMap level). */
export function applicationNamespaces(scan: Pick<WorkspaceScan, 'settings'>, inst: Instance): string[] {
  const keys = new Set([inst.key, ...inst.bases]);
  const values = scan.settings.filter((s) => s.setting === 'applicationNamespaces' && s.instance !== undefined && keys.has(s.instance));
  return values.flatMap((s) => envStrings(s.value) ?? []).filter((x) => x !== '');
}

/**
 * The sign of an Argo CD installed outside the repository in `namespace`: the Applications kept there
 * (`apps/shop.yaml`), or undefined when there is none or an install of the repository explains them.
 */
export function outsideArgoCD(scan: WorkspaceScan, namespace: string, roots: readonly string[]): { file: string } | undefined {
  const app = scan.appNamespaces.find((a) => a.namespace === namespace);
  if (!app) return undefined;
  for (const inst of scan.instances)
    if (inst.namespace === namespace || (inst.namespace && namespaceWatched(applicationNamespaces(scan, inst), inst.namespace, namespace)))
      return undefined;
  return { file: relativePath(roots, app.file) };
}
