/**
 * Static template checks: what can be known from the text alone, with no parameter set — so they
 * hold when offline data is missing (no cluster Secret in the repository, an unmapped git repo),
 * where the expansion renders nothing and would otherwise stay silent. This module walks the template
 * strings and calls the rules, each in its code prefix's home (codeLists/homes.ts): expand/templateChecks.ts,
 * validate/templateInStructure.ts, validate/constantName.ts, yaml/unquotedTemplate.ts,
 * generators/generatedApps.ts `literalDestination`; it keeps the quick fixes.
 * - every template string parsed in its mode (goTemplate or fasttemplate);
 * - mode confusions: `{{service}}` under goTemplate: true, `{{ .service }}` without it;
 * - keys that need `index` (`.metadata.labels.cluster-role`: `-`, `/` or `.` in a map key);
 * - `{{ }}` unquoted at the start of a YAML value (a flow mapping, not a string): quote it;
 * - Go template control flow (`{{- if .x }}` lines) in the YAML structure: use templatePatch;
 * - a literal destination with neither name nor server.
 * Each is one finding with a quick fix where one is clear (modeSwitch.ts adds the whole-document
 * ones: turn on goTemplate, convert every `{{name}}`); superseding codes
 * (diagnostics/findings.ts) drop the generic errors the same mistake also causes.
 */
import type { FeatureContributor } from '../context';
import type { CodeAction, EngineDiagnostic, Span } from '../../types';
import { isObj } from '../../objects';
import { moveToTemplatePatch } from './templatePatchFix';
import { convertAllToGo, goExpressionIn, turnOnGoTemplate } from './modeSwitch';
import { fixesOf, quickFix } from '../quickFix';
import { declaresAppSet } from '../../kinds/appset';
import { fieldsOf } from '../../fields/appset';
import { LazyPath, subPath, type Field } from '../../fields/place';
import { unquotedTemplates } from '../../yaml';
import { checkTemplateString, knownClean, type TemplateStringsOf } from '../../expand/templateChecks';
import { controlFlow } from '../../validate/templateInStructure';
import { constantName } from '../../validate/constantName';
import { patchUnknownFields } from '../../validate/patchFields';
import { literalDestination } from '../../generators/generatedApps';

interface Fix {
  title: string;
  newText: string;
}

export const templatesContributor: FeatureContributor = {
  name: 'templates',

  fileDiagnostics(file) {
    if (!declaresAppSet(file.text)) return [];
    // A file another tool renders, Helm's included (kinds/helmChart.ts), already has its one note.
    if (file.parsed.diagnostics.some((d) => d.code === 'yaml/templated-file' || d.code === 'helm/chart-template')) return [];
    return [...controlFlow(file), ...unquotedTemplates(file)];
  },

  diagnostics(ctx) {
    const spec = isObj(ctx.doc.value.spec) ? ctx.doc.value.spec : {};
    const goTemplate = spec.goTemplate === true;
    const rendered = (ctx.expansion().paramSets ?? ctx.expansion().apps.length) > 0;
    const out: EngineDiagnostic[] = [];
    const view = fieldsOf(ctx.doc);
    const strings: TemplateStringsOf = { text: ctx.file.text, goExpression: (key) => goExpressionIn(ctx, key) };
    // Each string that holds `{{` is checked with its place (LazyPath: read only for those strings).
    const visit = (from: Field) => {
      const at = new LazyPath(from);
      // A string already found clean in these modes needs no place (most strings of a file's
      // ApplicationSets repeat one another's).
      const check = (v: string) => {
        if (v.includes('{{') && !knownClean(v, goTemplate, rendered))
          out.push(...checkTemplateString(strings, v, at.here(), goTemplate, rendered));
      };
      // A value below a list or map: the path steps down only to a string to check or a list or map to walk
      // (a step down and up for every other value of every ApplicationSet's template before: issue 39).
      const down = (seg: string | number, v: unknown, depth: number) => {
        if (depth > 100) return;
        if (typeof v === 'string') {
          if (!v.includes('{{')) return;
          at.down(seg);
          check(v);
          at.up();
        } else if (v !== null && typeof v === 'object') {
          at.down(seg);
          walk(v, depth);
          at.up();
        }
      };
      const walk = (v: unknown, depth: number) => {
        if (depth > 100) return;
        if (typeof v === 'string') check(v);
        else if (Array.isArray(v)) for (let i = 0; i < v.length; i++) down(i, v[i], depth + 1);
        else if (isObj(v)) for (const k of Object.keys(v)) down(k, v[k], depth + 1);
      };
      walk(from.value, 0);
    };
    if (isObj(ctx.doc.value.spec)) visit(view.template);
    if (Array.isArray(spec.generators))
      spec.generators.forEach((g, i) => {
        if (!isObj(g)) return;
        for (const kind of Object.keys(g))
          if (isObj(g[kind]) && (g[kind] as Record<string, unknown>).template !== undefined)
            visit(subPath(view.generatorList[i], [kind, 'template']));
      });
    if (typeof spec.templatePatch === 'string' && !rendered)
      out.push(...checkTemplateString(strings, spec.templatePatch, view.templatePatch, goTemplate, rendered, true));
    if (!rendered) out.push(...literalDestination(ctx, spec));
    if (ctx.expansion().apps.length < 2) out.push(...constantName(ctx, spec));
    out.push(...patchUnknownFields(ctx, spec));
    return out;
  },

  fileCodeActions: (file, _span, diagnostics) => [
    ...fixesOf(diagnostics, 'appset/template-in-structure', (d) => {
      const doc = (d.data as { doc?: Span } | undefined)?.doc;
      const fix = doc && moveToTemplatePatch(file.text, doc);
      return fix ? quickFix(fix.title, [d], [{ file: file.uri, span: fix.span, newText: fix.newText }], true) : undefined;
    }),
    // An Argo CD placeholder in a Helm chart template: Helm's escape (kinds/helmPlaceholders.ts).
    ...fixesOf(diagnostics, 'helm/argo-placeholder', (d) => {
      const fix = (d.data as { fix?: Fix } | undefined)?.fix;
      return fix ? quickFix(fix.title, [d], [{ file: file.uri, span: d.span, newText: fix.newText }], true) : undefined;
    }),
  ],

  codeActions(ctx, _span, diagnostics) {
    const out: CodeAction[] = [];
    for (const d of diagnostics) {
      const fix = (d.data as { fix?: Fix } | undefined)?.fix;
      if (!fix || typeof fix.newText !== 'string') continue;
      out.push(quickFix(fix.title, [d], [{ file: ctx.file.uri, span: d.span, newText: fix.newText }], true));
    }
    out.push(...turnOnGoTemplate(ctx, diagnostics), ...convertAllToGo(ctx, diagnostics));
    return out;
  },
};
