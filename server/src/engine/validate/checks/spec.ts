/**
 * Checks on top-level spec fields: goTemplateOptions (Go `text/template` `Option()` panics on anything
 * but the missingkey forms), the deprecated applyNestedSelectors, and
 * templatePatch syntax (Argo CD `applicationset/controllers/template/template.go` `renderTemplatePatch`:
 * JSON when it starts with `{`, else YAML).
 */
import { parseLenientDocument, yamlLimitMessage } from '../../yaml';
import type { AppSetDoc } from '../../kinds';
import { fieldsOf } from '../../fields/appset';
import { sub, subPath } from '../../fields/place';
import type { EngineDiagnostic, Json } from '../../types';
import { validateOptions } from '@appset-tools/gotemplate';
import { isObj, own } from '../../objects';
import { finding } from '../../diagnostics/codes';
import { GATES, has } from '../../versions/behaviours';
import { label } from '../../versions/releases';
import { knownTo } from '../../versions/fields';
import type { TargetVersion } from '../../install/target';

/** Patches longer than this are not re-parsed on every keystroke. */
const MAX_PATCH_CHARS = 200_000;

export function checkSpecFields(doc: AppSetDoc, target?: TargetVersion): EngineDiagnostic[] {
  const out: EngineDiagnostic[] = [];
  const view = fieldsOf(doc);
  const spec = view.spec.value;
  if (!isObj(spec)) return out;

  // A field the target does not know gets only the unknown-field finding (its API server drops it).
  const options = !target || knownTo(['goTemplateOptions'], target.line, target.belowOldest) ? view.goTemplateOptions.value : undefined;
  if (Array.isArray(options)) {
    const strings = options.filter((o): o is string => typeof o === 'string');
    const bad = new Set(validateOptions(strings));
    options.forEach((o: Json, i: number) => {
      if (typeof o === 'string' && bad.has(o)) {
        out.push(
          finding(
            'appset/go-template-options',
            `"${o}" is not a valid goTemplateOptions entry; only missingkey=default, missingkey=invalid, missingkey=zero and missingkey=error are accepted (anything else crashes the controller's reconcile)`,
            sub(view.goTemplateOptions, i),
          ),
        );
      }
    });
    if (options.length > 0 && view.goTemplate.value !== true) {
      out.push(
        finding('appset/go-template-options-ignored', 'goTemplateOptions only apply with goTemplate: true', view.goTemplateOptions.keySpan),
      );
    }
  }

  if (!target || has(target.line, 'nestedSelectorsAlways')) {
    if (own(spec, 'applyNestedSelectors') !== undefined) {
      const checked = target ? ` (checked against ${target.why})` : '';
      out.push(
        finding(
          'appset/deprecated-field',
          `applyNestedSelectors is deprecated and ignored since Argo CD ${GATES.nestedSelectorsAlways.since}: selectors of nested generators always apply${checked}`,
          sub(view.spec, 'applyNestedSelectors').keySpan,
          {
            tags: ['deprecated'],
          },
        ),
      );
    }
  } else if (own(spec, 'applyNestedSelectors') !== true) {
    out.push(...ignoredNestedSelectors(doc, spec, target));
  }

  // A release without templatePatch never reads it (reported once, as a field it does not know).
  const patch = !target || knownTo(['templatePatch'], target.line) ? view.templatePatch.value : undefined;
  if (typeof patch === 'string' && patch.length <= MAX_PATCH_CHARS) {
    const problem = templatePatchProblem(patch);
    if (problem) {
      const span = view.templatePatch.span;
      out.push(finding('appset/template-patch-syntax', problem.message, span, { variant: problem.approximate }));
    }
  }
  return out;
}

/**
 * Before Argo CD 3.0 the controller drops the selectors of the generators inside a matrix/merge that
 * is itself a child of a matrix/merge, unless `spec.applyNestedSelectors: true` (argo-cd v2.x
 * `applicationset/generators/matrix.go`/`merge.go` `dropDisabledNestedSelectors`).
 */
function ignoredNestedSelectors(doc: AppSetDoc, spec: Record<string, Json>, target: TargetVersion): EngineDiagnostic[] {
  const out: EngineDiagnostic[] = [];
  const generators = own(spec, 'generators');
  if (!Array.isArray(generators)) return out;
  const entries = fieldsOf(doc).generatorList;
  generators.forEach((g, i) => {
    for (const outer of ['matrix', 'merge']) {
      const children = own(own(g, outer), 'generators');
      if (!Array.isArray(children)) continue;
      children.forEach((child, j) => {
        for (const inner of ['matrix', 'merge']) {
          const nested = own(own(child, inner), 'generators');
          if (!Array.isArray(nested)) continue;
          nested.forEach((n, k) => {
            if (own(n, 'selector') === undefined || own(n, 'selector') === null) return;
            out.push(
              finding(
                'appset/nested-selector-ignored',
                `This selector is ignored by ${label(target.line)}: selectors of generators inside a nested ${inner} apply only with spec.applyNestedSelectors: true (always since Argo CD ${GATES.nestedSelectorsAlways.since}). Checked against ${target.why}.`,
                subPath(entries[i], [outer, 'generators', j, inner, 'generators', k, 'selector']).keySpan,
              ),
            );
          });
        }
      });
    }
  });
  return out;
}

/**
 * Why a templatePatch cannot be read, or undefined. A patch with template actions is checked with
 * its action-only lines removed and inline actions replaced by a placeholder (the real text is only
 * known per parameter set), so such findings are warnings.
 */
export function templatePatchProblem(patch: string): { message: string; approximate: boolean } | undefined {
  const templated = patch.includes('{{');
  const text = templated ? withoutActions(patch) : patch;
  const note = templated ? ' (checked with its template actions left out)' : '';
  if (text.trim() === '') return undefined;
  let value: unknown;
  const tooBig = yamlLimitMessage(text);
  if (tooBig) return { message: `templatePatch is not checked: ${tooBig}`, approximate: false };
  if (text.trimStart().startsWith('{')) {
    if (templated) return undefined; // JSON with actions inside cannot be checked without rendering
    try {
      value = JSON.parse(text);
    } catch (e) {
      return {
        message: `templatePatch starts with "{" so it is read as JSON, but it is not valid JSON: ${(e as Error).message}`,
        approximate: false,
      };
    }
  } else {
    const d = parseLenientDocument(text);
    if (d.errors.length) {
      const err = d.errors[0];
      const line = text.slice(0, err.pos[0]).split('\n').length;
      return {
        message: `templatePatch is not valid YAML${note}: ${err.message} (line ${line} of the patch)`,
        approximate: templated,
      };
    }
    try {
      value = d.toJS({ maxAliasCount: 100 });
    } catch (e) {
      return { message: `templatePatch cannot be read: ${(e as Error).message}`, approximate: templated };
    }
  }
  if (value !== null && !isObj(value)) {
    return {
      message: `templatePatch must be a mapping with Application fields (like spec: …), got ${Array.isArray(value) ? 'a list' : 'a scalar'}${note}`,
      approximate: templated,
    };
  }
  return undefined;
}

/** Drops lines made only of `{{ … }}` actions and replaces other actions by a plain placeholder. */
function withoutActions(patch: string): string {
  return (
    patch
      .split('\n')
      // Action-only lines go; tested without a nested quantifier (\`^\s*(\{\{.*?\}\}\s*)+$\` backtracks
      // exponentially on a long line of actions that ends in text: a fuzz-found freeze).
      .filter((line) => !(line.includes('{{') && replaceActions(line, '').trim() === ''))
      .map((line) => replaceActions(line, 'x'))
      .join('\n')
  );
}

/**
 * `line.replace(/\{\{.*?\}\}/g, by)` in one pass. The RegExp rescans to the end of the line from every
 * `{{` that is never closed: 50,000 `{{ a` in one value took seconds (issue 25). Here a `{{` without a
 * `}}` before the next line terminator (`.` stops at `\r`, U+2028, U+2029) means no later `{{` before
 * that terminator has one either, so the search jumps there.
 */
export function replaceActions(line: string, by: string): string {
  let out = '';
  let from = 0;
  let i = line.indexOf('{{');
  while (i >= 0) {
    let stop = line.length;
    for (const t of ['\r', '\u2028', '\u2029']) {
      const k = line.indexOf(t, i + 2);
      if (k >= 0 && k < stop) stop = k;
    }
    const j = line.indexOf('}}', i + 2);
    if (j >= 0 && j + 2 <= stop) {
      out += line.slice(from, i) + by;
      from = j + 2;
      i = line.indexOf('{{', from);
    } else i = stop < line.length ? line.indexOf('{{', stop) : -1;
  }
  return out + line.slice(from);
}
