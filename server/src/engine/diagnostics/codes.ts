/**
 * The registry of diagnostic codes. Codes are stable: never rename or reuse one. Each area owns its
 * own list (validation, templates, generators, rollout) and this file joins them, so the README,
 * the CLI and the tests read one table. A test checks that every code emitted is registered and
 * that README.md documents every registered code.
 */
import type { Severity } from '../types';
import { VALIDATION_CODES } from '../validate/codes';
import { TEMPLATE_CODES } from '../expand/templateCodes';
import { GENERATOR_CODES } from '../generators/codes';
import { ROLLOUT_CODES } from '../rollout/codes';
import { POLICY_CODES } from '../features/policy/codes';
import { CONFIG_CODES } from '../config/codes';
import { HELM_CODES } from '../yaml/helmCodes';
import { INVENTORY_CODES } from '../generators/placeholders';

export interface CodeInfo {
  code: string;
  severity: Severity;
  /** One line: what the diagnostic means and why it matters. */
  summary: string;
}

export const ALL_CODES: readonly CodeInfo[] = [
  ...VALIDATION_CODES,
  ...TEMPLATE_CODES,
  ...GENERATOR_CODES,
  ...ROLLOUT_CODES,
  ...POLICY_CODES,
  ...CONFIG_CODES,
  ...HELM_CODES,
  ...INVENTORY_CODES,
];

const byCode = new Map(ALL_CODES.map((c) => [c.code, c]));

export function codeInfo(code: string): CodeInfo | undefined {
  return byCode.get(code);
}
