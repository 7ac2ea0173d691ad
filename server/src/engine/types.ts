/**
 * Shared engine types. The engine never imports `vscode` or LSP types: positions are character
 * offsets into the document text (UTF-16 code units, as JavaScript strings index them); the
 * language server and the CLI convert them to lines and columns.
 */

import type { DiagnosticCode } from './codeLists';

/** A half-open range of character offsets [start, end) in one text. */
export interface Span {
  start: number;
  end: number;
}

export type Severity = 'error' | 'warning' | 'information' | 'hint';

/** A location in another file (or the same one), used for related information. */
export interface Location {
  /** Absolute file system path, or the document URI when the location is inside an open document. */
  file: string;
  span?: Span;
}

export interface RelatedInfo {
  location: Location;
  message: string;
}

/**
 * Where a parameter set came from: a list element, a cluster Secret or inventory entry, a git file or
 * directory, a sample. `location` is absent when there is nothing to point at (the implicit in-cluster entry).
 */
export interface Source {
  kind: 'list-element' | 'cluster' | 'git-file' | 'git-directory' | 'sample';
  /** Plain words, e.g. `cluster Secret "cluster-prod-0"`, `list element 3`, `git directory apps/web`. */
  label: string;
  location?: Location;
  /**
   * The place for a reader, workspace-relative with a 1-based line (`clusters/prod.yaml:3`,
   * `apps/web/config.json`), for text the engine writes itself (the preview, hovers).
   */
  where?: string;
}

/**
 * The Applications (parameter sets) one finding is about. A mistake written once and hit by N
 * parameter sets is one finding with `count: N`, never N findings (diagnostics/findings.ts groups them).
 */
export interface Affected {
  /** How many Applications (parameter sets) have the problem … */
  count: number;
  /** … of how many the ApplicationSet generates offline. */
  of: number;
  /** Their names, the first few (a parameter set that renders no name is described by its values). */
  names: string[];
  /** Where the first few came from. */
  sources: Source[];
}

export interface EngineDiagnostic {
  /** Stable code from the registry in `diagnostics/codes.ts`, e.g. `appset/unknown-field`. */
  code: DiagnosticCode;
  /** The registry's severity for the code (`diagnostics/codes.ts` `finding`), or the one the user's config sets. */
  severity: Severity;
  message: string;
  span: Span;
  related?: RelatedInfo[];
  /** Marks unused / deprecated code for editors that render it specially. */
  tags?: ('unnecessary' | 'deprecated')[];
  /** Free-form payload that code actions read back (kept JSON-serialisable). */
  data?: unknown;
  /** The generated Applications this finding concerns, when it comes from the expansion. */
  affected?: Affected;
}

/** A text edit in some file. `file` is a path or URI; the span is in that file's current text. */
export interface TextEdit {
  file: string;
  span: Span;
  newText: string;
}

export interface CommandRef {
  /** Command id, e.g. `appsetTools.showPreview`. */
  id: string;
  title: string;
  args?: unknown[];
}

export interface CodeAction {
  title: string;
  kind: 'quickfix' | 'refactor' | 'source';
  /** Codes of the diagnostics this action resolves. */
  diagnosticCodes?: string[];
  /** Diagnostics (as computed by the engine) this action resolves, for LSP `diagnostics`. */
  diagnostics?: EngineDiagnostic[];
  isPreferred?: boolean;
  edits?: TextEdit[];
  /** New files (absolute paths) to create with their text, before `edits` are applied. */
  createFiles?: { file: string; text: string }[];
  command?: CommandRef;
}

export interface CodeLens {
  span: Span;
  title: string;
  /** The whole text when the title is kept short (shown on hovering the lens). */
  tooltip?: string;
  command?: CommandRef;
}

export interface Hover {
  span: Span;
  /** Markdown content. */
  markdown: string;
  /** Field documentation (what the schema says): shown after the hovers about this ApplicationSet's own data. */
  fieldDocs?: boolean;
  /** This hover says for this ApplicationSet what the field's general warning (its `⚠` trap) says may happen: the trap is left out. */
  answersTrap?: boolean;
}

export interface CompletionItem {
  label: string;
  kind: 'property' | 'value' | 'function' | 'variable' | 'snippet' | 'keyword';
  insertText?: string;
  /** When true, insertText uses LSP snippet syntax (${1:placeholder}). */
  snippet?: boolean;
  detail?: string;
  documentation?: string;
  /** What the typed word is matched against, when not the label (a dotted path shown as an `index` call). */
  filterText?: string;
  /** Range replaced by the completion; defaults to the word at the cursor. */
  span?: Span;
}

/** JSON-like value as parsed from YAML (objects are plain objects with own properties only). */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
