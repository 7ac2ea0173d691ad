import { test } from 'node:test';
import { getLanguageService } from '../../server/src/engine';
import { memHost } from '../helpers/memHost';
test('repro', () => {
  const cm = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: argocd-cmd-params-cm\n  namespace: argocd\ndata:\n  applicationsetcontroller.enable.progressive.syncs: "true"\n  applicationsetcontroller.enable.progressive.syncs: "true"\n';
  const files = new Map<string, string>([['/ws/argocd-cmd-params-cm.yaml', cm]]);
  const s = getLanguageService({ host: memHost(files) });
  const a = s.analyze('/ws/argocd-cmd-params-cm.yaml', cm, '/ws/argocd-cmd-params-cm.yaml');
  console.log(s.diagnostics(a));
  const b = s.analyze('/ws/x.yaml', 'a: 1\na: 2\n', '/ws/x.yaml');
  console.log(s.diagnostics(b));
});
