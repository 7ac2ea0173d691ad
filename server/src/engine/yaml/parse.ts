/**
 * Every YAML read and write of the engine outside a document's analysis, so the `yaml` library stays
 * an implementation detail of this folder. Each function names the reader it stands for: Go's
 * readers (sigs.k8s.io/yaml over go-yaml v2) read YAML 1.1 scalars; Kubernetes manifests in the
 * workspace are read leniently (a broken document is skipped, not fatal). Every reader logs at
 * `logLevel: 'error'`, so the library's warnings never reach a CLI's stderr.
 */
import * as YAML from 'yaml';
import { MAX_ALIAS_COUNT } from './document';
import { guardYaml, guardYamlSteps } from './limits';
import { duplicateKeySteps } from './duplicateKeys';
import { composeAllSteps, valueSteps } from './composeSteps';
import { runSteps } from '../steps';
import { fastWriteYaml } from './fastWrite';
import { fastRead } from './fastRead';
import { lazyDocument } from './lazyDocument';
import { splitDocuments } from './document';
import type { Json } from '../types';

/** A parsed YAML document with source ranges (see `document.ts`, `ast.ts` for reading it). */
export type YamlDocument = YAML.Document.Parsed;

/**
 * The library's "pretty" errors locate every error of a document, each by copying its whole line: a
 * long line with thousands of errors (a template's printed output) took minutes. Every reader turns
 * them off; the first error, the only one thrown, gets its position here, worded as the library words it.
 */
function located(text: string, e: YAML.YAMLError): YAML.YAMLError {
  const at = e.pos[0];
  if (at >= 0 && at <= text.length) {
    let line = 1;
    for (let i = text.indexOf('\n'); i >= 0 && i < at; i = text.indexOf('\n', i + 1)) line++;
    e.message += ` at line ${line}, column ${at - (text.lastIndexOf('\n', at - 1) + 1) + 1}:`;
  }
  return e;
}

/**
 * Duplicate keys are errors for these readers as for the library's default, but found by
 * `duplicateKeys.ts` with a Map: the library's own check compares every key with all earlier ones
 * (a cluster Secret with 90,000 keys took minutes to read).
 */
const UNIQUE_KEYS_BY_MAP = { uniqueKeys: false } as const;

function keysChecked<D extends YAML.Document.Parsed>(docs: D[], text: string): D[] {
  for (const d of docs) runSteps(duplicateKeySteps(d, text, 0));
  return docs;
}

/** One YAML value as Go's readers see it (YAML 1.1 scalars, bounded aliases); throws on syntax errors. */
export function parseGoYaml(text: string): unknown {
  const [doc] = keysChecked(
    [YAML.parseDocument(text, { version: '1.1', logLevel: 'error', prettyErrors: false, ...UNIQUE_KEYS_BY_MAP })],
    text,
  );
  if (doc.errors.length) throw located(text, doc.errors[0]);
  return doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
}

/** The first document of a file as Go's readers see it, timestamps kept as written; throws its first error. */
export function parseGoYamlFile(text: string): unknown {
  const doc = YAML.parseAllDocuments(text, { version: '1.1', logLevel: 'error', prettyErrors: false, ...UNIQUE_KEYS_BY_MAP })[0];
  if (doc && 'errors' in doc) keysChecked([doc], text);
  if (doc && 'errors' in doc && doc.errors.length) throw located(text, doc.errors[0]);
  if (!doc || !('toJS' in doc)) return null;
  // go-yaml v2 decodes a YAML 1.1 timestamp (`2001-12-14`) into an interface{} as the string written,
  // not as a time (sigs.k8s.io/yaml then goes through JSON): keep the source text.
  YAML.visit(doc, {
    Scalar(_, node) {
      if (node.value instanceof Date) node.value = (node as { source?: string }).source ?? node.value.toISOString();
    },
  });
  return doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
}

/**
 * Every document of a file, leniently (errors stay on each document); [] when the text cannot be
 * read at all. Documents over the size, line or nesting limits are blanked first (limits.ts), as
 * `parseYamlFile` does, so nothing that can exhaust the parser reaches it.
 */
export function parseDocuments(text: string): YamlDocument[] {
  try {
    const guarded = guardYaml(text).text;
    const docs = YAML.parseAllDocuments(guarded, DOCUMENTS_OPTIONS);
    return Array.isArray(docs) ? keysChecked(docs as YamlDocument[], guarded) : [];
  } catch {
    return [];
  }
}

/**
 * `parseDocuments` with the value of each document the fast reader read. When every `---` part of the
 * text is plain YAML that fastRead.ts reads (it reads only what the library reads without an error, a
 * warning or a duplicate key, to the same value and range), the documents are its lazy ones
 * (lazyDocument.ts: the library's nodes are made only if a consumer asks for them), else the library
 * reads the whole text as `parseDocuments` does and no value is given. The workspace's files
 * (workspace/index.ts) are read so: the library's first parse in a process cost the language server's
 * first answer 4 ms of compilation for the 200-byte kustomization of an Argo CD install (issue 39).
 * `test/unit/engine/yaml/read-documents.test.ts` compares both over the repository's YAML.
 */
export function readDocuments(text: string): { doc: YamlDocument; value?: Json }[] {
  const fast = readAllFast(text);
  return fast ?? parseDocuments(text).map((doc) => ({ doc }));
}

function readAllFast(text: string): { doc: YamlDocument; value: Json }[] | undefined {
  try {
    const guarded = guardYaml(text);
    // A text over a limit is blanked in places (limits.ts): the library reads what is left.
    if (guarded.diagnostics.length || guarded.text !== text) return undefined;
    const split = splitDocuments(text);
    if (!split) return undefined;
    const out: { doc: YamlDocument; value: Json }[] = [];
    for (const { start, end } of split) {
      const part = text.slice(start, end);
      const fast = fastRead(part, start);
      if (!fast) return undefined;
      out.push({ doc: lazyDocument(part, start, fast) as YamlDocument, value: fast.value });
    }
    return out;
  } catch {
    return undefined;
  }
}

const DOCUMENTS_OPTIONS = { strict: false, logLevel: 'error', prettyErrors: false, ...UNIQUE_KEYS_BY_MAP } as const;

/** The documents of `parseDocumentsSteps`, and each one's `toJS({ maxAliasCount })` in steps. */
export interface DocumentsRead {
  docs: YamlDocument[];
  valueSteps(doc: YamlDocument): Generator<void, unknown>;
}

/**
 * `parseDocuments` in steps (the language server's scheduler, lsp/scheduler.ts): the limits pre-scan,
 * the composing (a long list a few hundred items a step, composeSteps.ts) and the duplicate-key check
 * pause, and `valueSteps` converts a document as `toJS({ maxAliasCount })` does, in steps too. The same
 * documents and values (test/unit/engine/workspace/read-in-steps.test.ts compares).
 */
export function* parseDocumentsSteps(text: string): Generator<void, DocumentsRead> {
  try {
    const guarded = (yield* guardYamlSteps(text)).text;
    const { docs, grafts } = yield* composeAllSteps(guarded, 0, DOCUMENTS_OPTIONS);
    for (const d of docs) yield* duplicateKeySteps(d, guarded, 0);
    return { docs, valueSteps: (d) => valueSteps(d, grafts, MAX_ALIAS_COUNT) };
  } catch {
    return { docs: [], valueSteps: (d) => valueSteps(d, [], MAX_ALIAS_COUNT) };
  }
}

/** The values of the documents of a text that parse without errors (bounded aliases). */
export function documentValues(text: string): unknown[] {
  return parseDocuments(text)
    .filter((d) => d.errors.length === 0)
    .map((d) => d.toJS({ maxAliasCount: MAX_ALIAS_COUNT }));
}

/** One document, with duplicate keys allowed (as Go's readers allow them); errors stay on the document. */
export function parseLenientDocument(text: string): YamlDocument {
  return YAML.parseDocument(text, { uniqueKeys: false, prettyErrors: false, logLevel: 'error' }) as YamlDocument;
}

/**
 * A value as YAML text, for previews: no folding, no anchors for repeated objects. Plain values are
 * written by the fast writer (fastWrite.ts, the same text), the rest by the library.
 */
export function stringifyYaml(value: unknown, lineSafe = false): string {
  return fastWriteYaml(value, lineSafe) ?? libraryStringifyYaml(value, lineSafe);
}

/** `stringifyYaml` by the `yaml` library alone (the fast writer's reference). */
export function libraryStringifyYaml(value: unknown, lineSafe = false): string {
  if (!lineSafe) return YAML.stringify(value, { lineWidth: 0, aliasDuplicateObjects: false });
  // For output a CI runner reads line by line: a string that holds a line break or starts with `:` (a
  // workflow command `::…`) is written double-quoted, so no line starts with text from a value or key.
  const doc = new YAML.Document(value, { aliasDuplicateObjects: false });
  YAML.visit(doc, {
    Scalar(_key, node) {
      if (typeof node.value === 'string' && /[\r\n\u0085\u2028\u2029]|^\s*:/.test(node.value)) node.type = 'QUOTE_DOUBLE';
    },
  });
  // The library writes U+2028/U+2029 raw even in double quotes; YAML's own escapes for them (only
  // double-quoted scalars hold them here: every string with one is quoted above).
  return doc
    .toString({ lineWidth: 0 })
    .replace(/\u2028/g, '\\L')
    .replace(/\u2029/g, '\\P');
}

/** Every document of a text with its value; documents whose value cannot be built (alias limits) are left out. */
export function documentsWithValues(text: string): { doc: YamlDocument; value: unknown }[] {
  const out: { doc: YamlDocument; value: unknown }[] = [];
  for (const doc of parseDocuments(text)) {
    try {
      out.push({ doc, value: doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) });
    } catch {
      // an alias bomb or a broken document: nothing to read from it
    }
  }
  return out;
}

/** The first document of a file as Go's readers see it (YAML 1.1), or undefined when it has errors. */
export function parseGoYamlDocument(text: string): YamlDocument | undefined {
  const guarded = guardYaml(text).text;
  const d = YAML.parseAllDocuments(guarded, { version: '1.1', logLevel: 'error', prettyErrors: false, ...UNIQUE_KEYS_BY_MAP })[0] as
    YamlDocument | undefined;
  if (d?.errors) keysChecked([d], guarded);
  return d && !d.errors?.length ? d : undefined;
}
