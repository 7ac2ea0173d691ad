/** Diagnostic codes owned by the Helm area. Keep the summaries to one line. */
export const HELM_CODES = [
  {
    code: 'helm/chart-template',
    severity: 'information',
    summary: 'A Helm chart template: it becomes YAML only when Helm renders it, so it is not checked (lint the output of helm template).',
  },
  {
    code: 'helm/argo-placeholder',
    severity: 'error',
    variant: { severity: 'warning', when: 'Helm renders the placeholder empty instead of failing' },
    summary:
      'An unescaped Argo CD placeholder in a Helm chart template: Helm evaluates it first and fails ({{path.basename}}) or renders it empty ({{ .cluster }}); escape it as {{ "{{…}}" }}.',
  },
  {
    code: 'helm/render-fails',
    severity: 'warning',
    variant: { severity: 'information', when: 'the chart folder holds other values files, which may set what values.yaml lacks' },
    summary:
      "Helm itself fails on the chart template with the chart's values.yaml (a field read below a value it lacks: nil pointer evaluating …), so helm template and Argo CD's sync of the chart fail.",
  },
  {
    code: 'helm/printed-collection',
    severity: 'error',
    summary:
      "A chart template prints a list or map of its values into the YAML ({{ .Values.x }}): Helm writes Go's text ([map[k:v]]), not YAML; use toYaml with nindent.",
  },
  {
    code: 'yaml/templated-file',
    severity: 'information',
    summary:
      'A file another tool renders into YAML (helmfile .gotmpl, gomplate, Go template control flow around the documents): not checked until rendered.',
  },
  {
    code: 'helm/values-ignored-field',
    severity: 'warning',
    summary:
      'A field of an argocd-apps chart ApplicationSet entry that the chart does not copy into the ApplicationSet it renders, so it has no effect.',
  },
] as const;
