/**
 * What the fuzz suite feeds the product (issue 16): ApplicationSets built from fast-check
 * arbitraries and then mutated, with the hostile shapes that once killed or froze the server mixed
 * in — deep nesting of every YAML kind, shared template structures (doubled dicts/lists through
 * toJson/toYaml/print/deepCopy), placeholders, alias bombs, prototype keys, missing or null parts —
 * and random file trees with symlink loops, links out of the tree, FIFOs and devices.
 * Input k of seed s is always the same (`fc.sample` with seed s + k), so a failure is replayed by
 * its number.
 */
import fc from 'fast-check';
import * as YAML from 'yaml';
import { flowClusterSecret } from '../helpers/clusters';

const FRAGMENTS = [
  '{{name}}',
  '{{.name}}',
  '{{ toJson . }}',
  '{{',
  '}}',
  '__proto__',
  'constructor',
  '- ',
  '[',
  ']',
  '{',
  '}',
  '&a ',
  '*a',
  '|',
  '>-',
  '#',
  '"',
  "'",
  ': ',
  '\t',
  '\0',
  '\ufeff',
  '\r\n',
  '---\n',
  '...\n',
  '!!binary',
  '<<: *a',
  '\u2028',
  '{{ .path.basename }}',
  '{{ index .metadata.labels "x" }}',
  // At a `---` boundary (issue 25): an empty value with a comment, an unterminated quote, an unclosed
  // flow collection, each followed by a document marker.
  'k:  # c\n---\n',
  'q: "abc\n---\n',
  'f: [a,\n---\n',
  'm: {a: 1,\n---\n',
  // The rest of issue 25's probe: a workflow command after a line break, unclosed `{{` many times
  // over (the rescanning detection patterns), a suppression that is text of a block scalar.
  '\n::error file=x::injected\n',
  '\n::add-mask::x\n',
  '{{ a '.repeat(200),
  '|\n  # appset-tools: ignore\n',
];

/** The glob that made every backtracking matcher freeze on a long name of `a`s (issue 25). */
const BACKTRACK = '*a*a*a*a*a*a*b';

/** Template bodies that do a lot of work from a little text. */
const HEAVY = [
  (n: number) => `{{ $d := dict "x" "y" }}${'{{ $d = dict "a" $d "b" $d }}'.repeat(n)}{{ toJson $d }}`,
  (n: number) => `{{ $d := dict "x" "y" }}${'{{ $d = dict "a" $d "b" $d }}'.repeat(n)}{{ toYaml $d }}`,
  (n: number) => `{{ $d := list 1 }}${'{{ $d = list $d $d }}'.repeat(n)}{{ print $d }}`,
  (n: number) => `{{ $d := dict "x" "y" }}${'{{ $d = dict "a" $d "b" $d }}'.repeat(n)}{{ $c := deepCopy $d }}x`,
  (n: number) => `{{ $l := list }}{{ range until ${n * 7000} }}{{ $l = append $l . }}{{ end }}{{ len $l }}`,
  (n: number) => `{{ range until ${n * 100000} }}x{{ end }}`,
  (n: number) => `{{ repeat ${n * 1000000} "ab" }}`,
  (n: number) => `{{ fromYaml "${'['.repeat(n * 100)}" }}`,
  (n: number) => `{{ regexFind "(a+)+$" "${'a'.repeat(n * 3)}b" }}`,
];

/** Text nested `n` deep in one of the ways the parser recurses through. */
export function deepText(kind: number, n: number): string {
  switch (kind % 6) {
    case 0:
      return '- '.repeat(n) + 'x';
    case 1:
      return Array.from({ length: n }, (_, i) => ' '.repeat(i) + 'k:').join('\n');
    case 2:
      return '['.repeat(n) + ']'.repeat(n);
    case 3:
      return '{a: '.repeat(n) + '1' + '}'.repeat(n);
    case 4:
      return Array.from({ length: n }, (_, i) => ' '.repeat(2 * i) + '- k:').join('\n');
    default:
      return '['.repeat(n);
  }
}

const placeholder = fc.constantFrom(
  '{{name}}',
  '{{.name}}',
  '{{ .values.x }}',
  '{{ .path.path }}',
  '{{server}}',
  '{{ nope }}',
  '{{ .name | upper }}',
  '{{ default "x" .nope }}',
);
const word = fc.oneof(fc.string({ maxLength: 12 }), placeholder, fc.constantFrom(...FRAGMENTS));

const generator = fc.oneof(
  fc.record({
    list: fc.record({
      elements: fc.array(
        fc.dictionary(fc.oneof(fc.constantFrom('name', 'server', '__proto__', 'x'), fc.string({ maxLength: 5 })), word, { maxKeys: 4 }),
        { maxLength: 30 },
      ),
    }),
  }),
  fc.record({
    list: fc.record({
      elementsYaml: fc.oneof(
        word,
        fc.integer({ min: 0, max: 5 }).chain((k) => fc.integer({ min: 1, max: 3000 }).map((n) => deepText(k, n))),
      ),
    }),
  }),
  fc.record({
    clusters: fc.record({
      selector: fc.option(
        fc.record({ matchLabels: fc.dictionary(fc.string({ maxLength: 6 }), fc.string({ maxLength: 6 }), { maxKeys: 2 }) }),
        { nil: undefined },
      ),
    }),
  }),
  fc.record({
    git: fc.record({
      repoURL: fc.constantFrom('https://github.com/org/repo.git', 'x'),
      revision: fc.constant('HEAD'),
      files: fc.array(
        fc.record({
          path: fc.constantFrom('**/config.json', '*.yaml', '../x', '/etc/passwd', '**', BACKTRACK, `**/${BACKTRACK}`, '[!a]*{a,[b-'),
        }),
        { maxLength: 2 },
      ),
    }),
  }),
  fc.record({
    git: fc.record({
      repoURL: fc.constant('https://github.com/org/repo.git'),
      revision: fc.constant('HEAD'),
      directories: fc.array(fc.record({ path: fc.constantFrom('*', '**', 'apps/*', '.', BACKTRACK, `*/${BACKTRACK}`) }), { maxLength: 2 }),
    }),
  }),
  fc.record({
    matrix: fc.record({
      generators: fc.array(fc.record({ list: fc.record({ elements: fc.array(fc.record({ name: word }), { maxLength: 60 }) }) }), {
        minLength: 0,
        maxLength: 3,
      }),
    }),
  }),
  fc.constantFrom(null, {}, 'x', [], { list: null }, { matrix: null }, { merge: { generators: null } }),
);

const heavy = fc.tuple(fc.integer({ min: 0, max: HEAVY.length - 1 }), fc.integer({ min: 1, max: 32 })).map(([i, n]) => HEAVY[i](n));

const template = fc.oneof(
  fc.record({
    metadata: fc.record({ name: fc.oneof(placeholder, heavy, word) }),
    spec: fc.record({
      project: word,
      source: fc.record({ repoURL: word, path: fc.oneof(word, heavy) }),
      destination: fc.record({ server: fc.constant('https://kubernetes.default.svc'), namespace: word }),
    }),
  }),
  fc.constantFrom(undefined, null, 'x', [], {}),
);

/** One ApplicationSet document as an object (before mutation). */
export const appsetValue = fc.record(
  {
    apiVersion: fc.constantFrom('argoproj.io/v1alpha1', 'argoproj.io/v1'),
    kind: fc.constant('ApplicationSet'),
    metadata: fc.record({ name: word, namespace: fc.constantFrom('argocd', 'x') }),
    spec: fc.record(
      {
        goTemplate: fc.boolean(),
        goTemplateOptions: fc.constantFrom(['missingkey=error'], ['bogus'], []),
        generators: fc.oneof(fc.array(generator, { maxLength: 4 }), fc.constantFrom(null, 'x', {})),
        template,
        templatePatch: fc.oneof(
          heavy,
          word,
          fc.integer({ min: 0, max: 5 }).chain((k) => fc.integer({ min: 1, max: 3000 }).map((n) => deepText(k, n))),
        ),
        strategy: fc.constantFrom(
          undefined,
          { type: 'RollingSync', rollingSync: { steps: [{ matchExpressions: [{ key: 'env', operator: 'In', values: ['a'] }] }] } },
          { type: 'RollingSync', rollingSync: null },
          { type: 'RollingSync', rollingSync: { steps: null } },
        ),
      },
      { requiredKeys: [] },
    ),
  },
  { requiredKeys: ['apiVersion', 'kind'] },
);

/** Text edits applied after stringifying: insert, delete, duplicate, or splice in deep text. */
const mutation = fc.oneof(
  fc.record({
    op: fc.constant('insert' as const),
    at: fc.nat(),
    text: fc.oneof(fc.constantFrom(...FRAGMENTS), fc.string({ maxLength: 8 })),
  }),
  fc.record({ op: fc.constant('delete' as const), at: fc.nat(), len: fc.integer({ min: 1, max: 20 }) }),
  fc.record({ op: fc.constant('deep' as const), at: fc.nat(), kind: fc.nat(5), n: fc.integer({ min: 50, max: 5000 }) }),
  fc.record({ op: fc.constant('aliasBomb' as const), levels: fc.integer({ min: 2, max: 9 }) }),
  // One mapping with many keys, some repeated (the library's duplicate check was quadratic, issue 25).
  fc.record({ op: fc.constant('manyKeys' as const), n: fc.integer({ min: 1000, max: 30000 }) }),
);

interface Mutation {
  op: 'insert' | 'delete' | 'deep' | 'aliasBomb' | 'manyKeys';
  at?: number;
  text?: string;
  len?: number;
  kind?: number;
  n?: number;
  levels?: number;
}

function applyMutation(text: string, m: Mutation): string {
  const at = text.length ? (m.at ?? 0) % (text.length + 1) : 0;
  switch (m.op) {
    case 'insert':
      return text.slice(0, at) + m.text + text.slice(at);
    case 'delete':
      return text.slice(0, at) + text.slice(at + (m.len ?? 1));
    case 'deep':
      return text.slice(0, at) + deepText(m.kind ?? 0, m.n ?? 1) + text.slice(at);
    case 'manyKeys':
      // A document of its own: inside a broken one, the parser's recursion is issue 25's other part.
      return `${text}\n---\nmany:\n${Array.from({ length: m.n ?? 1 }, (_, i) => `  k${i % 997 === 0 ? 0 : i}: x\n`).join('')}`;
    default: {
      const lines = ['a0: &a0 [x, x, x, x, x, x, x, x, x]'];
      for (let i = 1; i < (m.levels ?? 2); i++)
        lines.push(
          `a${i}: &a${i} [${Array(9)
            .fill(`*a${i - 1}`)
            .join(', ')}]`,
        );
      return lines.join('\n') + '\n---\n' + text;
    }
  }
}

/** A whole file: one or more documents, then a few mutations. */
export const fileText = fc
  .tuple(fc.array(appsetValue, { minLength: 1, maxLength: 2 }), fc.array(mutation, { maxLength: 3 }), fc.boolean())
  .map(([docs, muts, flow]) => {
    let text = docs.map((d) => YAML.stringify(d, flow ? { collectionStyle: 'flow' } : {})).join('---\n');
    for (const m of muts) text = applyMutation(text, m);
    return text;
  });

/** A random file tree: folders, files, symlinks (loops, out of the tree, to devices), FIFOs. */
export interface TreeEntry {
  path: string;
  kind: 'dir' | 'file' | 'link' | 'fifo';
  target?: string;
  text?: string;
}

// A name of 200 `a`s meets the backtracking glob; `%` names are file names, never URIs (issue 25).
const seg = fc.constantFrom('a', 'b', 'apps', 'c', '.hidden', 'node_modules', 'a'.repeat(200), 'bad%zz', 'p%41');
const relPath = fc.array(seg, { minLength: 1, maxLength: 4 }).map((s) => s.join('/'));
const secret = (name: string) => flowClusterSecret({ name, secretName: name, server: `https://${name}.example` });

export const tree = fc.array(
  fc.oneof(
    relPath.map((p): TreeEntry => ({ path: p, kind: 'dir' })),
    fc.tuple(relPath, fc.constantFrom('config.json', 's.yaml', 'x.yaml', 'deep.yaml')).map(([p, f]): TreeEntry => ({
      path: `${p}/${f}`,
      kind: 'file',
      text: f === 'config.json' ? '{"name": "n"}' : f === 'deep.yaml' ? deepText(1, 3000) : secret(p.replace(/[^a-z]/g, '') || 'x'),
    })),
    fc
      .tuple(relPath, fc.constantFrom('.', '..', '../..', '/dev/zero', '/etc', 'OUTSIDE', '/', 'nowhere'))
      .map(([p, t]): TreeEntry => ({ path: `${p}/l${t.length}`, kind: 'link', target: t })),
    relPath.map((p): TreeEntry => ({ path: `${p}/pipe.yaml`, kind: 'fifo' })),
  ),
  { maxLength: 25 },
);

export function sample<T>(arb: fc.Arbitrary<T>, seed: number): T {
  return fc.sample(arb, { seed, numRuns: 1 })[0];
}
