/**
 * The controller settings of the install that runs an ApplicationSet, as the ApplicationSet controller
 * applies them (Argo CD `cmd/argocd-applicationset-controller/commands/applicationset_controller.go`):
 * - `--policy` / `applicationsetcontroller.policy`: the policy applied is `rules/applicationsSync.ts`'s
 *   (features/policy/syncPolicy.ts); an unknown value stops the controller (`utils.Policies`);
 * - `--enable-scm-providers` (default true) and `--allowed-scm-providers` (empty = all): an SCM
 *   provider or pull request generator fails when providers are off, or when its custom API URL is not
 *   one of the allowed ones exactly (`applicationset/generators/scm_provider.go` ScmProviderAllowed);
 * - `--applicationset-namespaces`: the controller's own namespace is always watched, the others match
 *   by glob or `/regexp/` (`applicationset/utils/utils.go` IsNamespaceAllowed, `util/glob/list.go`);
 *   with other namespaces, SCM providers on and no allow-list, the controller refuses to start.
 * Values are read as the controller reads them (install/argoEnv.ts, install/model.ts settingBool/settingList).
 */
import type { SourceText } from '../inputs';
import { governingFor, installModel, settingOf, type Governing, type InstallModel, type SettingValue } from './model';
import type { ControllerSettingName } from './scan';
import { argoCdsNamed } from './names';

export const POLICIES = ['sync', 'create-only', 'create-update', 'create-delete'] as const;

export interface ControllerSettings {
  model: InstallModel;
  gov: Governing;
  /** The governing install(s) by name, for messages (`Argo CD argocd`). */
  name: string;
  get(name: ControllerSettingName): SettingValue | undefined;
}

/** The settings of the install(s) that run an ApplicationSet at `path` in `namespace`. */
export function controllerFor(file: SourceText, namespace: string | undefined): ControllerSettings {
  const model = installModel(file);
  const gov = governingFor(model, file, { path: file.path ?? '', namespace });
  const name = gov.mapping
    ? `Argo CD "${gov.mapping.name}"`
    : gov.installs.length
      ? argoCdsNamed(gov.installs.map((i) => i.name))
      : 'Argo CD';
  return { model, gov, name, get: (n) => settingOf(model, gov, n) };
}

export { settingBool, settingList } from './model';
