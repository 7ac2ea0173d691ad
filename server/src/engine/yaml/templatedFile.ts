/**
 * The rule `yaml/templated-file`: a file another tool (helmfile, envsubst, jsonnet, …) renders into
 * YAML is not YAML yet, so what it declares is not checked as written. Which files are such templates,
 * and what they declare, is decided above the reader (kinds/helmChart.ts, features/templates/), which
 * hands over the tool, why, and where; the code, its words and the choice between them live here, in
 * the `yaml/` prefix's home (codeLists/homes.ts). Nothing here reads a document.
 */
import type { EngineDiagnostic, Span } from '../types';
import { finding } from '../diagnostics/codes';

/** A file another tool renders into YAML: which tool, and what in the text says so. */
export interface RenderedBy {
  tool: string;
  reason: string;
}

/**
 * `declares`: `values` when the file is a templated values file whose `applicationsets:` key is at
 * `span`, `manifests` when it declares an ApplicationSet whose kind is at `span`.
 */
export function templatedFile(by: RenderedBy, declares: 'values' | 'manifests', span: Span): EngineDiagnostic {
  return declares === 'values'
    ? finding(
        'yaml/templated-file',
        `this values file is a template that ${by.tool} renders (${by.reason}), so the ApplicationSets it declares exist only once it is rendered and are not checked here. Check the rendered values instead.`,
        span,
      )
    : finding(
        'yaml/templated-file',
        `this file is a template that ${by.tool} renders into YAML (${by.reason}), so its ApplicationSets exist only once it is rendered and are not checked here. ` +
          'Check the rendered output instead (render it, then appset lint the result).',
        span,
      );
}

/**
 * Go template control flow around the YAML structure (`lines` lines like `first`, outside spec.template):
 * the whole file is a template another tool renders (validate/templateInStructure.ts tells it apart from
 * control flow inside spec.template). `file` is the whole text, which a quick fix may need.
 */
export function controlFlowTemplate(lines: number, first: string, span: Span, file: Span): EngineDiagnostic {
  return finding(
    'yaml/templated-file',
    `Go template control flow around the YAML structure (${lines} line${lines === 1 ? '' : 's'} like "${first}", outside spec.template): this file is a template another tool renders into YAML, so its ApplicationSets exist only once it is rendered and are not checked here. Check the rendered output instead.`,
    span,
    { data: { doc: file } },
  );
}
