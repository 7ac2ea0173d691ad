/**
 * Every registered diagnostic code, as plain data: each area's list lives in this folder (the Helm
 * area's in `helm.ts`) and imports nothing, so the registry (`diagnostics/codes.ts`) and the
 * vocabulary (`types.ts`) read the codes without a circle back through the areas that emit them —
 * nor through `diagnostics/`, which reads `types.ts`: the lists stand below both.
 * `DiagnosticCode` is the union of the literal codes, so `tsc` rejects an unregistered one.
 */
import { VALIDATION_CODES } from './validation';
import { TEMPLATE_CODES } from './templates';
import { GENERATOR_CODES } from './generators';
import { ROLLOUT_CODES } from './rollout';
import { POLICY_CODES } from './policy';
import { CONFIG_CODES } from './config';
import { INVENTORY_CODES } from './inventory';
import { HELM_CODES } from './helm';
import { CONTROLLER_CODES } from './controller';
import { DIFF_CODES } from './diff';

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
