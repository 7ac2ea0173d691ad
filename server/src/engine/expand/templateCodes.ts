/**
 * The code of a template finding, from the error's phase and the reason the template library gave
 * (gotemplate/reason.ts), never from its message; and the data a template finding hands its quick fixes
 * (`templateErrorData`: the undefined function's name, `undefinedFunctionOf`).
 */
import type { TEMPLATE_CODES } from '../codeLists/templates';
import type { TemplateReason } from '@appset-tools/gotemplate';

/** Picks the diagnostic code for a TemplateError: its phase (`kind`) and the reason the library gave. */
export function templateErrorCode(
  kind: 'parse' | 'exec' | 'fast' | 'option',
  reason: TemplateReason | undefined,
): (typeof TEMPLATE_CODES)[number]['code'] {
  switch (kind) {
    case 'option':
      return 'template/invalid-option';
    case 'fast':
      return 'template/fasttemplate-unclosed';
    case 'parse':
      return reason?.kind === 'undefined-function' ? 'template/unknown-function' : 'template/parse-error';
    case 'exec':
      if (reason?.kind === 'preview-skipped') return 'template/preview-skipped';
      if (reason?.kind === 'limit') return 'template/limit';
      return reason?.kind === 'missing-key' || reason?.kind === 'nil-data' ? 'template/missing-key' : 'template/exec-error';
  }
}

/**
 * What a template finding carries for its quick fixes (the finding's `data`): the name of a function
 * the template library does not have, taken from the error's reason where it is raised, so the
 * "did you mean" fixes never read it back out of the message.
 */
export interface TemplateFindingData {
  undefinedFunction?: string;
}

/** The finding data of a template error's reason (undefined when it carries nothing a fix reads). */
export function templateErrorData(reason: TemplateReason | undefined): TemplateFindingData | undefined {
  return reason?.kind === 'undefined-function' ? { undefinedFunction: reason.name } : undefined;
}

/** The function a finding says is not defined, as its producer recorded it in `data`. */
export function undefinedFunctionOf(d: { data?: unknown }): string | undefined {
  const name = (d.data as TemplateFindingData | undefined)?.undefinedFunction;
  return typeof name === 'string' && name !== '' ? name : undefined;
}
