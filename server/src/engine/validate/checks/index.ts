/** The semantic checks the CRD cannot express, run after schema validation. */
import type { EngineDiagnostic } from '../../types';
import type { AppSetDoc } from '../../yaml/document';
import { checkGenerators } from './generators';
import { checkSpecFields } from './spec';
import { checkStrategy } from './strategy';
import { checkYaml11Booleans } from './yaml11';

export function runChecks(doc: AppSetDoc, text: string): EngineDiagnostic[] {
  return [...checkSpecFields(doc), ...checkGenerators(doc, text), ...checkStrategy(doc), ...checkYaml11Booleans(doc)];
}
