/**
 * Kubernetes naming rules as the controller applies them (k8s.io/apimachinery
 * `pkg/util/validation/validation.go`: IsQualifiedName, IsValidLabelValue, IsDNS1123Subdomain).
 * One home for these rules: validation, the generators and the expansion all ask here, and each
 * words the structured reason its own way (the controller's text for generator errors, plain words
 * for editor findings).
 */

// apimachinery's patterns, tested by character codes below: each is asked of every ApplicationSet's own name and
// of the generated Applications' names and labels, and a pattern is compiled in each fresh process at its
// first use, twice (V8 compiles it again to machine code at its second run; issue 39, tenth pass):
// - a qualified name's name part: `^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$` (`qualifiedName`);
// - a label value: the same, or empty;
// - a DNS-1123 subdomain: `^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$` (`dnsSubdomainCharacters`).
export const DNS1123_SUBDOMAIN_MAX = 253;
export const NAME_PART_MAX = 63;

/** Why a label key (a qualified name `[prefix/]name`) is invalid. */
export type KeyProblem =
  | { kind: 'too-many-slashes' }
  | { kind: 'empty-prefix' }
  | { kind: 'prefix-too-long'; prefix: string }
  | { kind: 'prefix-not-subdomain'; prefix: string }
  | { kind: 'empty-name' }
  | { kind: 'name-too-long' }
  | { kind: 'name-characters' };

/** Metadata names, cluster names as Application names: lowercase RFC 1123 subdomains of at most 253 characters. */
export function isDnsSubdomain(s: string): boolean {
  return s.length <= DNS1123_SUBDOMAIN_MAX && dnsSubdomainCharacters(s);
}

/** The DNS-1123 subdomain pattern (see the top): labels of `[-a-z0-9]` between dots, none empty and none starting or ending with `-`. */
function dnsSubdomainCharacters(s: string): boolean {
  // Whether the character before is the start of a label (the text's start or a dot).
  let labelStart = true;
  let prev = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 46 /* . */) {
      if (labelStart || prev === 45) return false;
      labelStart = true;
    } else if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57)) labelStart = false;
    else if (c === 45 /* - */) {
      if (labelStart) return false;
    } else return false;
    prev = c;
  }
  return !labelStart && prev !== 45;
}

/** Every problem of a label key, in the order Kubernetes reports them (empty when valid). */
export function labelKeyProblems(key: string): KeyProblem[] {
  const parts = key.split('/');
  if (parts.length > 2) return [{ kind: 'too-many-slashes' }];
  const out: KeyProblem[] = [];
  const name = parts[parts.length - 1];
  if (parts.length === 2) {
    const prefix = parts[0];
    if (!prefix) out.push({ kind: 'empty-prefix' });
    else {
      if (prefix.length > DNS1123_SUBDOMAIN_MAX) out.push({ kind: 'prefix-too-long', prefix });
      if (!dnsSubdomainCharacters(prefix)) out.push({ kind: 'prefix-not-subdomain', prefix });
    }
  }
  if (!name) out.push({ kind: 'empty-name' });
  else {
    if (name.length > NAME_PART_MAX) out.push({ kind: 'name-too-long' });
    if (!qualifiedName(name)) out.push({ kind: 'name-characters' });
  }
  return out;
}

/** The qualified name pattern (see the top): `[-A-Za-z0-9_.]` only, starting and ending with a letter or digit. */
function qualifiedName(s: string): boolean {
  if (!s.length || !alphanumeric(s.charCodeAt(0)) || !alphanumeric(s.charCodeAt(s.length - 1))) return false;
  for (let i = 1; i < s.length - 1; i++) {
    const c = s.charCodeAt(i);
    if (!alphanumeric(c) && c !== 45 /* - */ && c !== 95 /* _ */ && c !== 46 /* . */) return false;
  }
  return true;
}

const alphanumeric = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57);

/** Why a label value is invalid (empty when valid). */
export type ValueProblem = { kind: 'value-too-long' } | { kind: 'value-characters' };

export function labelValueProblems(value: string): ValueProblem[] {
  const out: ValueProblem[] = [];
  if (value.length > NAME_PART_MAX) out.push({ kind: 'value-too-long' });
  if (value !== '' && !qualifiedName(value)) out.push({ kind: 'value-characters' });
  return out;
}

/** The texts k8s.io/apimachinery's validation gives (the controller's error messages quote them). */
export function controllerText(p: KeyProblem | ValueProblem): string {
  switch (p.kind) {
    case 'too-many-slashes':
      return "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')";
    case 'empty-prefix':
      return 'prefix part must be non-empty';
    case 'prefix-too-long':
      return 'prefix part must be no more than 253 characters';
    case 'prefix-not-subdomain':
      return "prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
    case 'empty-name':
      return 'name part must be non-empty';
    case 'name-too-long':
      return 'name part must be no more than 63 characters';
    case 'name-characters':
      return "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
    case 'value-too-long':
      return 'must be no more than 63 characters';
    case 'value-characters':
      return "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
  }
}

/** The same reasons in our own plain words, for editor findings. */
export function plainText(p: KeyProblem | ValueProblem): string {
  switch (p.kind) {
    case 'too-many-slashes':
      return 'it has more than one "/"';
    case 'empty-prefix':
      return 'the prefix before "/" is empty';
    case 'prefix-too-long':
    case 'prefix-not-subdomain':
      return `the prefix "${p.prefix}" is not a lowercase DNS subdomain`;
    case 'empty-name':
      return 'the name is empty';
    case 'name-too-long':
      return 'the name is longer than 63 characters';
    case 'name-characters':
      return 'it may only contain letters, digits, "-", "_" and "." and must start and end with a letter or digit';
    case 'value-too-long':
      return 'the value is longer than 63 characters';
    case 'value-characters':
      return 'it may only contain letters, digits, "-", "_" and "." and must start and end with a letter or digit';
  }
}

/** Label selector operators (metav1.LabelSelectorOperator). */
export const SELECTOR_OPERATORS = ['In', 'NotIn', 'Exists', 'DoesNotExist'] as const;
