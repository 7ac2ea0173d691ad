/**
 * The Argo CD Operator's `ArgoCD` resource: `spec.applicationSet.extraCommandArgs` and `env` reach the
 * ApplicationSet controller; `spec.cmdParams` is copied to the ConfigMap but not wired to the controller
 * (read, and said as ignored); `spec.sourceNamespaces` is read as `application.namespaces`.
 */
import type { Json } from '../types';
import { own } from '../objects';
import { at, scalarText, type Collector, type Place, type Site } from './collector';
import { checkArgs, checkEnv, checkParams } from './controllerInputs';

/** The Argo CD Operator's `ArgoCD` resource: spec.applicationSet and spec.cmdParams. */
export function checkArgoCDResource(c: Collector, place: Place, site: Site, v: Json, name: string) {
  c.target(place, 'argocd-cr', site);
  const spec = own(v, 'spec');
  const as = own(spec, 'applicationSet');
  checkArgs(
    c,
    place,
    at(site, 'spec', 'applicationSet', 'extraCommandArgs'),
    own(as, 'extraCommandArgs'),
    `ArgoCD ${name} (spec.applicationSet.extraCommandArgs)`,
  );
  checkEnv(c, place, at(site, 'spec', 'applicationSet', 'env'), own(as, 'env'), `ArgoCD ${name} (spec.applicationSet.env)`);
  // spec.sourceNamespaces: the namespaces the Operator lets Applications live in (it passes them as the
  // application controller's and API server's --application-namespaces; argocd-operator api/v1beta1
  // ArgoCDSpec.SourceNamespaces), read as application.namespaces.
  const sourceNs = own(spec, 'sourceNamespaces');
  if (Array.isArray(sourceNs) && sourceNs.length)
    c.setting(
      place,
      at(site, 'spec', 'sourceNamespaces'),
      'applicationNamespaces',
      'configmap',
      sourceNs
        .map((x) => scalarText(x) ?? '')
        .filter(Boolean)
        .join(','),
    );
  checkParams(
    c,
    place,
    at(site, 'spec', 'cmdParams'),
    own(spec, 'cmdParams'),
    `ArgoCD ${name} spec.cmdParams`,
    'the Operator does not pass this key to the ApplicationSet controller; use spec.applicationSet.extraCommandArgs: [--enable-progressive-syncs]',
  );
}
