/**
 * A glob in a template's `source.path` (`projects/team/*`): the repo-server joins the path to the
 * checkout and requires that folder to exist (reposerver/repository/repository.go runManifestGen →
 * util/io/path `Path`: "app path does not exist"), with no glob expansion, so every Application the
 * template generates fails to generate manifests. Globs belong in a git generator's `directories`
 * (which then sets `{{path}}`) or in `directory.include`. Only the text outside `{{ }}` actions is read:
 * a parameter's value is not the user's text here.
 */
import type { AppSetDoc } from '../../kinds';
import { fieldsOf } from '../../fields/appset';
import { sub, type Field } from '../../fields/place';
import type { EngineDiagnostic } from '../../types';
import { isObj, own } from '../../objects';
import { finding } from '../../diagnostics/codes';

/** A glob character Go's path.Match and git pathspecs read, outside template actions. */
const GLOB = /[*?[]/;

export function checkSourcePaths(doc: AppSetDoc): EngineDiagnostic[] {
  const view = fieldsOf(doc);
  const out: EngineDiagnostic[] = [];
  // The values are read first and a place only for a path that holds a glob: nearly every path holds
  // none, and the places were most of this check, for each ApplicationSet of a file (issue 39).
  const templates: { value: unknown; at: () => Field }[] = [{ value: view.template.value, at: () => view.template }];
  view.generatorList.forEach((entry) => {
    if (!isObj(entry.value)) return;
    for (const kind of Object.keys(entry.value)) {
      const body = entry.value[kind];
      if (isObj(body) && isObj(body.template)) templates.push({ value: body.template, at: () => sub(sub(entry, kind), 'template') });
    }
  });
  for (const t of templates) {
    const spec = isObj(t.value) ? own(t.value, 'spec') : undefined;
    if (!isObj(spec)) continue;
    const sources: { value: unknown; at: () => Field }[] = [];
    if (isObj(spec.source)) sources.push({ value: own(spec, 'source'), at: () => sub(sub(t.at(), 'spec'), 'source') });
    if (Array.isArray(spec.sources))
      spec.sources.forEach((v, i) => sources.push({ value: v, at: () => sub(sub(sub(t.at(), 'spec'), 'sources'), i) }));
    for (const { value: v, at } of sources) {
      // A Helm repository chart has no path; a ref-only source of multi-source is not built.
      if (!isObj(v) || typeof v.path !== 'string' || typeof v.chart === 'string') continue;
      // Dropping the actions adds no glob character: a path without one (nearly all) needs no more.
      if (!GLOB.test(v.path)) continue;
      const literal = v.path.replace(/\{\{[\s\S]*?\}\}/g, '');
      const m = GLOB.exec(literal);
      if (!m) continue;
      const source = at();
      const path = sub(source, 'path');
      out.push(
        finding(
          'appset/glob-source-path',
          `source path "${v.path}" holds the glob character "${m[0]}", but Argo CD reads the path as one literal folder: every Application this template generates fails with "app path does not exist"; to generate one Application per folder, put the pattern in a git generator's directories and write path: '{{path}}'`,
          path.valueRange && path.exact ? path.span : source.keySpan,
        ),
      );
    }
  }
  return out;
}
