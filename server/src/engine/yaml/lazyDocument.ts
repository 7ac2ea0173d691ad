/**
 * Documents read by the fast reader (fastRead.ts): a `YAML.Document` whose value and located tree
 * are known, and whose library nodes are made from the same text only when something asks for them
 * (a quick fix's edit, a values file's nodes, the library's re-parse of one entry after an edit the
 * fast reader cannot read): reading `contents` makes them, in one go. An edit the fast reader can
 * read never makes them: it reads the part again, taking the entries before the edit from this
 * reading (document.ts, fastRead.ts).
 *
 * Until then the document has no errors or warnings (the fast reader reads only texts the library
 * reads without any) and the range the library gives.
 */
import * as YAML from 'yaml';
import { presetTree } from './ast';
import { composeAllSteps } from './composeSteps';
import { fastRead, type FastDocument } from './fastRead';
import { PARSE_OPTIONS } from './parseOptions';
import { runSteps } from '../steps';

/** Lazy documents whose nodes are not made yet, with their text and offset. */
const unmade = new WeakMap<YAML.Document, { text: string; offset: number }>();

/** The document of `text` (at `offset` in its file) as `fastRead` read it. */
export function lazyDocument(text: string, offset: number, fast: FastDocument): YAML.Document.Parsed {
  const doc = new YAML.Document(undefined, PARSE_OPTIONS) as YAML.Document.Parsed;
  doc.range = fast.range;
  doc.errors = [];
  doc.warnings = [];
  unmade.set(doc, { text, offset });
  Object.defineProperty(doc, 'contents', CONTENTS);
  presetTree(doc, fast.root);
  return doc;
}

/**
 * The lazy `contents`: made on first use, when the library's document becomes the lazy one's own (its
 * data property `contents` replaces this accessor). One getter and setter for every lazy document (a
 * pair of closures per document gave each its own hidden class: a file of 50 ApplicationSets makes 50).
 */
const CONTENTS: PropertyDescriptor & ThisType<YAML.Document> = {
  configurable: true,
  enumerable: true,
  get() {
    makeNow(this);
    return this.contents;
  },
  set(v: unknown) {
    makeNow(this);
    (this as { contents: unknown }).contents = v;
  },
};

/** Whether `doc` is a lazy document whose nodes are not made yet. */
export function isUnmade(doc: YAML.Document): boolean {
  return unmade.has(doc);
}

/**
 * `doc` moved by `delta` characters in its file, when it is a lazy document not made yet: read again
 * at the new offset (a copy of the library's nodes would have to make them first). Undefined otherwise.
 */
export function lazyMoved(doc: YAML.Document, delta: number): YAML.Document.Parsed | undefined {
  const lazy = unmade.get(doc);
  const fast = lazy && fastRead(lazy.text, lazy.offset + delta);
  return lazy && fast ? lazyDocument(lazy.text, lazy.offset + delta, fast) : undefined;
}

function makeNow(doc: YAML.Document): void {
  const lazy = unmade.get(doc);
  if (lazy) install(doc, runSteps(composeAllSteps(lazy.text, lazy.offset, PARSE_OPTIONS)).docs);
}

/** The library's document of the same text becomes `doc`'s own (its nodes, directives, schema, comments). */
function install(doc: YAML.Document, made: YAML.Document.Parsed[]): void {
  unmade.delete(doc);
  const real = made[0];
  // The fast reader read exactly one document without errors; the library agrees (fast-read.test.ts).
  if (made.length !== 1 || !real) throw new Error('lazyDocument: the library read the text differently');
  for (const k of Reflect.ownKeys(real)) Object.defineProperty(doc, k, Object.getOwnPropertyDescriptor(real, k) as PropertyDescriptor);
}
