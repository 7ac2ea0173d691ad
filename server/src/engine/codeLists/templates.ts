/**
 * Diagnostic codes owned by the template engine. The engine itself throws TemplateError; the
 * language features map its `kind` (and message) to these codes.
 */
export const TEMPLATE_CODES = [
  {
    code: 'template/parse-error',
    severity: 'error',
    summary: 'Go text/template cannot parse the string; Argo CD fails the whole ApplicationSet.',
  },
  {
    code: 'template/exec-error',
    severity: 'error',
    summary: 'Executing the Go template fails for a parameter set (wrong types, bad function arguments, …).',
  },
  {
    code: 'template/missing-key',
    severity: 'error',
    summary: 'With missingkey=error a referenced param does not exist for some parameter set.',
  },
  {
    code: 'template/unknown-function',
    severity: 'error',
    summary: 'The template calls a function Argo CD does not provide (e.g. Helm-only include/required).',
  },
  {
    code: 'template/invalid-option',
    severity: 'error',
    summary: 'A goTemplateOptions entry is not missingkey=default|invalid|zero|error; the controller panics.',
  },
  {
    code: 'template/fasttemplate-unclosed',
    severity: 'error',
    summary: 'In fasttemplate mode a {{ has no closing }} while the string is processed.',
  },
  {
    code: 'template/fasttemplate-syntax',
    severity: 'error',
    summary:
      'A fasttemplate tag ({{service}}) under goTemplate: true: Go templates read it as an undefined function and the controller fails; write {{ .service }}.',
  },
  {
    code: 'template/gotemplate-syntax',
    severity: 'warning',
    summary:
      'Go template syntax ({{ .service }}, pipes, if) without goTemplate: true: fasttemplate leaves it as written in every Application (an error where the text left is rejected, as in metadata.name).',
  },
  {
    code: 'template/needs-index',
    severity: 'error',
    summary:
      'A map key with -, / or . written as a field (.metadata.labels.cluster-role) does not parse or reads the wrong key; write index .metadata.labels "cluster-role".',
  },
  {
    code: 'template/preview-skipped',
    severity: 'information',
    summary:
      'bcrypt, genCA, derivePassword and other slow functions used their time budget, so the editor preview skipped this Application; Argo CD renders it.',
  },
  {
    code: 'template/limit',
    severity: 'warning',
    summary:
      "The template did more work than ApplicationSet Tools allows (values built or printed, the size of one value, steps, output); Argo CD has no such limit, the CLI's --no-limits lifts or raises it.",
  },
  {
    code: 'template/non-deterministic',
    severity: 'information',
    summary: 'The template uses now, rand*, uuidv4 or similar, so the preview differs from what Argo CD renders.',
  },
] as const;
