/**
 * Every registered diagnostic code, as plain data: each area's list lives in `codeLists/` (the Helm
 * area's in `codeLists/helm.ts`) and imports nothing, so the registry (`codes.ts`) and the vocabulary
 * (`types.ts`) read the codes without a circle back through the areas that emit them.
 * `DiagnosticCode` is the union of the literal codes, so `tsc` rejects an unregistered one.
 */
import { VALIDATION_CODES } from './codeLists/validation';
import { TEMPLATE_CODES } from './codeLists/templates';
import { GENERATOR_CODES } from './codeLists/generators';
import { ROLLOUT_CODES } from './codeLists/rollout';
import { POLICY_CODES } from './codeLists/policy';
import { CONFIG_CODES } from './codeLists/config';
import { INVENTORY_CODES } from './codeLists/inventory';
import { HELM_CODES } from './codeLists/helm';
import { CONTROLLER_CODES } from './codeLists/controller';
import { DIFF_CODES } from './codeLists/diff';

export const REGISTERED_CODES = [
  ...VALIDATION_CODES,
  ...TEMPLATE_CODES,
  ...GENERATOR_CODES,
  ...ROLLOUT_CODES,
  ...POLICY_CODES,
  ...CONFIG_CODES,
  ...HELM_CODES,
  ...INVENTORY_CODES,
  ...CONTROLLER_CODES,
  ...DIFF_CODES,
] as const;

/** Every registered diagnostic code: a union of string literals, not `string`. */
export type DiagnosticCode = (typeof REGISTERED_CODES)[number]['code'];
