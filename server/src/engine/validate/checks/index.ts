/** The semantic checks the CRD cannot express, run after schema validation. */
import type { EngineDiagnostic } from '../../types';
import type { AppSetDoc } from '../../kinds';
import { checkGenerators } from './generatorChecks';
import { checkSpecFields } from './spec';
import { checkStrategy } from './strategy';
import { checkYaml11Booleans } from './yaml11';
import { checkSourcePaths } from './sourcePath';
import { checkOwnName } from './ownName';
import type { TargetVersion } from '../../install/target';

/** `target` is the Argo CD version checked against (undefined: the newest release's behaviour). */
export function runChecks(doc: AppSetDoc, text: string, target?: TargetVersion): EngineDiagnostic[] {
  return [
    ...checkOwnName(doc),
    ...checkSpecFields(doc, target),
    // A kustomize base whose generators every build replaces: they never reach Argo CD (validate/partial.ts).
    ...(doc.generatorsReplaced ? [] : checkGenerators(doc, text)),
    ...checkStrategy(doc, target),
    ...checkYaml11Booleans(doc, text),
    ...checkSourcePaths(doc),
  ];
}
