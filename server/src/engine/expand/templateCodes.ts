import type { TEMPLATE_CODES } from '../codeLists/templates';

/** Picks the diagnostic code for a TemplateError (kind + Go message). */
export function templateErrorCode(kind: 'parse' | 'exec' | 'fast' | 'option', message: string): (typeof TEMPLATE_CODES)[number]['code'] {
  switch (kind) {
    case 'option':
      return 'template/invalid-option';
    case 'fast':
      return 'template/fasttemplate-unclosed';
    case 'parse':
      return /: function "[^"]*" not defined$/.test(message) ? 'template/unknown-function' : 'template/parse-error';
    case 'exec':
      if (/skipped by the offline preview/.test(message)) return 'template/preview-skipped';
      if (message.includes("ApplicationSet Tools' limit")) return 'template/limit';
      return /map has no entry for key|nil data; no entry for key/.test(message) ? 'template/missing-key' : 'template/exec-error';
  }
}
