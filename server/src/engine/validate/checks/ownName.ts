/**
 * The ApplicationSet's own `metadata.name`. The API server validates a custom resource's name as a
 * DNS subdomain (apiextensions-apiserver `pkg/registry/customresource/validator.go`, through
 * apimachinery `ValidateObjectMetaAccessor` with `NameIsDNSSubdomain`): an ApplicationSet named
 * `predator-v45- Nezlamnist` is never created, so none of its Applications is. Argo CD never templates
 * this name (only `spec.template` is rendered), so what is written is what is sent.
 *
 * Not claimed where another tool fills the name in first: a placeholder Argo CD does not read
 * (`{{ }}`, `${ }`, `$x`, `%{ }`… — such files are scaffolds, kinds/scaffolding.ts), a `<NUMBER>` to fill in, an upper-case
 * sed/envsubst placeholder, whole (`sedPlaceholder`) or inside the name (`-APPSET_NUM`), an argocd-apps values entry (the chart writes the name),
 * and a kustomize patch (validate/partial.ts: it names the resource it patches).
 */
import type { EngineDiagnostic } from '../../types';
import type { AppSetDoc } from '../../kinds';
import { sedPlaceholder } from '../../kinds/scaffolding';
import { fieldsOf } from '../../fields/appset';
import { sub } from '../../fields/place';
import { finding } from '../../diagnostics/codes';
import { isDnsSubdomain, DNS1123_SUBDOMAIN_MAX } from '../../rules/kubernetes';

/**
 * Text another tool, or the reader, replaces before anything applies the file: template and shell
 * syntax, and a workshop's `<NUMBER>` / `<your-name>` that the instructions ask to fill in.
 */
const FILLED_IN_LATER = /[{}$%<>]|\[\[/;
/**
 * An upper-case word inside the name (`test-appset-APPSET_NUM`): the placeholder of a
 * `sed s/APPSET_NUM/01/` step, as `sedPlaceholder` is for a whole upper-case name.
 */
const UPPER_WORD_INSIDE = /(?:^|[^A-Za-z0-9])[A-Z][A-Z0-9_]*[A-Z0-9](?:$|[^A-Za-z0-9])/;

export function checkOwnName(doc: AppSetDoc): EngineDiagnostic[] {
  if (doc.helmValues || doc.partial) return [];
  const name = sub(fieldsOf(doc).metadata, 'name');
  const value = name.value;
  if (typeof value !== 'string' || !value || !name.exact || !name.valueRange) return [];
  if (isDnsSubdomain(value) || FILLED_IN_LATER.test(value) || UPPER_WORD_INSIDE.test(value) || sedPlaceholder(doc)) return [];
  const why =
    value.length > DNS1123_SUBDOMAIN_MAX
      ? `longer than ${DNS1123_SUBDOMAIN_MAX} characters`
      : "only lower case alphanumeric characters, '-' or '.', starting and ending with an alphanumeric character, are allowed";
  return [
    finding(
      'appset/invalid-value',
      `the API server rejects this ApplicationSet, so none of its Applications is created: its name "${value}" is not a lowercase RFC 1123 subdomain (${why})`,
      name.valueRange,
    ),
  ];
}
