import type { TEMPLATE_CODES } from '../codeLists/templates';
import type { TemplateReason } from '../../gotemplate';

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
