/**
 * An index of the YAML files of the workspace, read through the EngineHost. The cluster generator
 * (cluster Secrets, inventory files) and the progressive-sync detection (argocd-cmd-params-cm,
 * controller Deployments, Helm values, ArgoCD resources) look things up here.
 *
 * Lazy and pre-filtered: nothing is read until a consumer asks; then every YAML file is read once
 * and tested against the engine's interests (`interests.ts`, plain text tests); only the text of
 * files that pass some test is kept, and a file is parsed only when a consumer asks for it. Entries
 * are cached by path and mtime+size (a `ProbeCache` from the host may keep the test results between
 * CLI runs, so unchanged files are not even read); open editor buffers override disk content
 * (`setOverlay`). Bounded: at most MAX_FILES files of at most MAX_FILE_SIZE bytes are indexed.
 */
import { readDocuments, parseDocumentsSteps, MAX_ALIAS_COUNT, type YamlDocument } from '../yaml';
import type { EngineHost } from '../host';
import { relativePath } from '../paths';
import type { Json, Span } from '../types';
import { INTERESTS, type Interest } from './interests';
import { SKIPPED_FOLDERS } from '../rules/folders';
import { isTerraformName, isYamlName } from './names';

export const MAX_FILES = 5000;
export const MAX_FILE_SIZE = 1024 * 1024;
/** Folder entries the scan looks at in all (a tree of 100,000 folders must not delay the first answer). */
export const MAX_SCAN_ENTRIES = 50000;
/** Units of listing work (a folder read, a name looked at) `warm` does per file of its budget: `warm(50)` does 1,000. */
export const SCAN_ENTRIES_PER_FILE = 20;
/**
 * Files `warm` looks at per file of its budget when the probe cache knows them to pass no interest: one
 * `stat` each, no read and no test (in the server, 1,000 of them cost about what 40 files read and tested do).
 */
export const CACHE_SKIPS_PER_FILE = 16;
/** Folder depth below a workspace root. */
export const MAX_SCAN_DEPTH = 12;
/**
 * Terraform files are listed too, apart from the YAML files (`terraformFiles`): a `helm_release` of the
 * argo-cd chart is an Argo CD install (install/terraform.ts). At most MAX_TERRAFORM_FILES of them.
 */
export const MAX_TERRAFORM_FILES = 500;
/** A provisional answer that claimed nothing (see `stillReading`). */
const UNKNOWN = Symbol('unknown');
/** A provisional answer whose findings wait for the whole workspace, whatever it holds (see `matchingHeld`). */
const HELD = Symbol('held');

export interface IndexedDoc {
  index: number;
  value: Json;
  span: Span;
}

/** A document of an indexed file that could not be read (consumers say so: never a silent skip). */
export interface UnreadDoc {
  index: number;
  span: Span;
  /** Why, in words: `it expands more than 100 YAML aliases`. */
  why: string;
}

/** A document of an indexed file that is not valid YAML (a key written twice, a syntax error): left out of `docs`. */
export interface InvalidDoc {
  index: number;
  /** Where the first error is. */
  span: Span;
  /** The YAML library's words for the first error, unchanged: `Map keys must be unique`. */
  why: string;
  /** The library's code for it: `DUPLICATE_KEY` for a key written twice in one mapping. */
  code: string;
}

export interface IndexedFile {
  path: string;
  text: string;
  /** The file's documents that parse without errors (parsed on first access). */
  readonly docs: IndexedDoc[];
  /** Documents that parse but cannot be read into values (an alias bomb). */
  readonly unread: UnreadDoc[];
  /** Documents that are not valid YAML; kubectl, kustomize and Argo CD refuse them (consumers may say so). */
  readonly invalid: InvalidDoc[];
  /** Every document as parsed, by index: their located trees (yaml/ast.ts) give spans without a second parse. */
  readonly parsed: readonly YamlDocument[];
  /**
   * `docs`, without keeping them when they were not parsed yet: for a consumer that keeps only a little of
   * them (install/installers.ts `appSetDeploys`: an ApplicationSet's template paths, not its 540-element list).
   */
  readDocs(): IndexedDoc[];
}

/** What is remembered of a file: its cache key, which interests it passes, and its text if any. */
interface Probe {
  key: string;
  /** Bit i set: INTERESTS[i] passes. */
  mask: number;
  file?: IndexedFile;
  /** The index version in which the key was last checked: within one version a file is looked at once. */
  seen: number;
}

/**
 * Test results kept between runs (the CLI's cache folder): path → `key` and interest mask, where
 * the key is mtime+size. Implementations must tolerate being cleared at any time.
 */
export interface ProbeCache {
  get(path: string): { key: string; mask: number } | undefined;
  set(path: string, key: string, mask: number): void;
  /** The files it knew, when opened, to pass some interest of `mask` (bit i: INTERESTS[i]; WorkspaceIndex.readKnownWhenAsked). */
  passing?(mask: number): string[];
  /** How many files it knew when opened (WorkspaceIndex.knownLarger). */
  known?(): number;
  /** `get` without keeping the entry for the next run (a file only looked up, not looked at). */
  peek?(path: string): { key: string; mask: number } | undefined;
}

export interface WorkspaceIndexOptions {
  /** Test interests on the text before parsing (default true; false parses every file, for tests). */
  prefilter?: boolean;
  cache?: ProbeCache;
  /**
   * The language server's first answers must not wait for the whole workspace to be read: until
   * `warm()` has read every file, `matching()` of a `deferrable` interest answers from the files read
   * so far; `settle()` then says whether such an answer may have changed.
   */
  defer?: boolean;
}

export class WorkspaceIndex {
  private probes = new Map<string, Probe>();
  private overlays = new Map<string, string>();
  /**
   * The probe key of each overlay's text: a number drawn when the text is set, not a hash of the text (a
   * hash of the 111 KiB document was several ms of the first answer's CPU, its loop running cold). A text
   * set again after another one is read again, which only costs that read.
   */
  private overlayKeys = new Map<string, string>();
  private overlaySerial = 0;
  private listing: string[] | undefined;
  /** The Terraform files of the listing (see `terraformFiles`). */
  private terraformListing: string[] = [];
  /** Deferred mode: the Terraform files an answer was given from (`settle` compares). */
  private terraformGiven: string[] | undefined;
  /** What the scan left out (caps, unreadable or oversized files), in words; see `scanNotes()`. */
  private listingNotes: string[] = [];
  private skipped = new Map<string, string>();
  private matches = new Map<Interest, { version: number; files: IndexedFile[] }>();
  private readonly prefilter: boolean;
  /** Deferred mode (options.defer) until the first complete warm-up after a full invalidation. */
  private deferring: boolean;
  /**
   * Deferrable interests answered before the workspace was read, with the files each answer held,
   * or UNKNOWN when the consumer claimed nothing (`stillReading`).
   */
  private provisional = new Map<Interest, string[] | typeof UNKNOWN | typeof HELD>();
  /**
   * Deferred mode: how many answers were given from a held interest (`matchingHeld`, `noteHeld`); a
   * consumer compares it before and after its work to know whether that work must wait for the read.
   */
  heldReads = 0;
  /** Incremented whenever anything may have changed; callers use it as a cache key. */
  version = 0;
  /**
   * What the index did, for tests and `APPSET_DEBUG=stats`: YAML files listed, `stat`s of listed files,
   * files read from disk, files known from the probe cache to pass no interest (not read), and files parsed.
   */
  readonly counts = { listed: 0, statted: 0, read: 0, cacheSkips: 0, parsed: 0 };

  constructor(
    private readonly host: EngineHost,
    private readonly options: WorkspaceIndexOptions = {},
  ) {
    this.prefilter = options.prefilter !== false;
    this.deferring = options.defer === true;
  }

  /** An open document's text replaces the file on disk (undefined removes the overlay). */
  setOverlay(path: string, text: string | undefined): void {
    if (text === undefined) {
      if (!this.overlays.delete(path)) return;
      this.overlayKeys.delete(path);
    } else if (this.overlays.get(path) === text) return;
    else {
      this.overlays.set(path, text);
      this.overlayKeys.set(path, 'o:' + ++this.overlaySerial);
    }
    this.version++;
  }

  /**
   * A file's text as the editor holds it: an open document's text (unsaved edits included), else the file
   * on disk. For readers outside the YAML index (the git generators' config files): the same rule as the
   * index's own files, so an edit counts before it is saved. A document whose file was deleted on disk has
   * no overlay (OpenDocuments.deletedOnDisk): it reads as the disk does, missing. Every overlay change
   * bumps `version`, which keys the expansions: a result read from an overlay never outlives its text.
   */
  readText(path: string): string | undefined {
    return this.overlays.get(path) ?? this.host.readFile(path);
  }

  /** Something changed on disk (undefined: anything). */
  invalidate(path?: string): void {
    if (path) this.probes.delete(path);
    else {
      this.probes.clear();
      // A full reset (settings, folders) reads the workspace again, in the background.
      this.deferring = this.options.defer === true;
      this.provisional.clear();
    }
    this.listing = undefined;
    this.scanning = undefined;
    this.version++;
  }

  /** The YAML files of the workspace (listing plus open documents), sorted. */
  paths(): string[] {
    const paths = new Set(this.list());
    for (const p of this.overlays.keys()) if (isYamlName(p)) paths.add(p);
    return [...paths].sort();
  }

  /** The YAML files that pass `interest`'s text test, parsed on access (cached until `version` changes). */
  matching(interest: Interest): IndexedFile[] {
    if (this.deferring && interest.deferrable) return this.matchingSoFar(interest);
    const hit = this.matches.get(interest);
    if (hit && hit.version === this.version) return hit.files;
    const bit = INTERESTS.indexOf(interest);
    const out: IndexedFile[] = [];
    for (const p of this.paths()) {
      const probe = this.probe(p);
      if (!probe) continue;
      if (bit >= 0 && this.prefilter && !(probe.mask & (1 << bit))) continue;
      const f = probe.file ?? this.file(p);
      if (f && (!this.prefilter || bit >= 0 || interest.test(f.text, p))) out.push(f);
    }
    this.matches.set(interest, { version: this.version, files: out });
    return out;
  }

  /**
   * `matching()` for a consumer whose answer may be provisional while the workspace is read (deferred
   * mode), even for an interest that is not `deferrable` for its other consumers: the files read so far,
   * recorded so that `settle()` reports a change when the full answer differs. Outside deferred mode,
   * or for a deferrable interest, the same as `matching()`.
   */
  matchingProvisional(interest: Interest): IndexedFile[] {
    return this.deferring ? this.matchingSoFar(interest) : this.matching(interest);
  }

  /** Deferred mode: whether answers may still come from part of the workspace (see `matchingProvisional`). */
  get reading(): boolean {
    return this.deferring;
  }

  /** Deferred mode: the files read so far (open documents included) that pass `interest`. */
  private matchingSoFar(interest: Interest): IndexedFile[] {
    const bit = INTERESTS.indexOf(interest);
    this.readKnownOf(bit);
    const paths = new Set(this.probes.keys());
    for (const p of this.overlays.keys()) if (isYamlName(p)) paths.add(p);
    const out: IndexedFile[] = [];
    for (const p of [...paths].sort()) {
      const probe = this.probe(p);
      if (!probe || (bit >= 0 && this.prefilter && !(probe.mask & (1 << bit)))) continue;
      const f = probe.file ?? this.file(p);
      if (f && (!this.prefilter || bit >= 0 || interest.test(f.text, p))) out.push(f);
    }
    const given = this.provisional.get(interest);
    if (given !== UNKNOWN && given !== HELD)
      this.provisional.set(
        interest,
        out.map((f) => f.path),
      );
    return out;
  }

  /**
   * `matching()` for a consumer whose findings wait until the workspace has been read (deferred mode,
   * any interest): the files read so far, for what needs no finding (a preview while the workspace is
   * read); the call is counted in `heldReads`, and `settle()` reports a change whatever the whole
   * workspace holds, so the caller re-validates and then gives the findings it held.
   */
  matchingHeld(interest: Interest): IndexedFile[] {
    if (!this.deferring) return this.matching(interest);
    const files = this.matchingSoFar(interest);
    this.provisional.set(interest, HELD);
    this.heldReads++;
    return files;
  }

  /** Deferred mode: an answer made from `matchingHeld`'s files was used again (a cached reading of them). */
  noteHeld(): void {
    if (this.deferring) this.heldReads++;
  }

  /**
   * Deferred mode: true while a `deferrable` interest can be answered only in part. A consumer whose
   * answer would claim an absence (no AppProject of that name) claims nothing meanwhile; `settle()`
   * then reports a change when the full answer holds any file.
   */
  stillReading(interest: Interest): boolean {
    if (!this.deferring || !interest.deferrable) return false;
    this.provisional.set(interest, UNKNOWN);
    return true;
  }

  /**
   * Deferred mode: true while the workspace is read, for a consumer of any interest whose findings
   * would claim something the rest of the workspace may contradict (the controller settings of an
   * install not read yet). It claims nothing meanwhile; `settle()` reports a change when the full
   * answer holds any file, so the caller re-validates.
   */
  holdClaims(interest: Interest): boolean {
    if (!this.deferring) return false;
    this.provisional.set(interest, UNKNOWN);
    return true;
  }

  /**
   * Ends deferred mode once `warm()` has read every file: true when an answer given before (a
   * deferrable interest answered from part of the workspace) may differ now; the version is then
   * bumped so that cached results are recomputed, and the caller re-validates what it showed.
   */
  settle(): boolean {
    if (!this.deferring) return false;
    this.deferring = false;
    let changed = false;
    for (const [interest, given] of this.provisional) {
      const now = this.matching(interest).map((f) => f.path);
      if (given === HELD) changed = true;
      else if (given === UNKNOWN ? now.length > 0 : now.length !== given.length || now.some((p, i) => p !== given[i])) changed = true;
    }
    this.provisional.clear();
    if (this.terraformGiven) {
      const now = this.terraformPaths();
      if (now.length !== this.terraformGiven.length || now.some((p, i) => p !== this.terraformGiven![i])) changed = true;
      this.terraformGiven = undefined;
    }
    if (changed) this.version++;
    return changed;
  }

  /**
   * The Terraform files of the workspace (`*.tf`, open documents included), read on access; their text
   * only (`docs` is not for them). In deferred mode, the ones listed so far (`settle` reports a change).
   */
  terraformFiles(): IndexedFile[] {
    const paths = this.deferring ? (this.terraformGiven = this.terraformPaths(true)) : this.terraformPaths();
    const out: IndexedFile[] = [];
    for (const p of paths) {
      const f = this.file(p);
      if (f) out.push(f);
    }
    return out;
  }

  private terraformPaths(soFar = false): string[] {
    const listed = soFar && !this.listing ? (this.scanning?.terraform ?? []) : (this.list(), this.terraformListing);
    const paths = new Set(listed);
    for (const p of this.overlays.keys()) if (isTerraformName(p)) paths.add(p);
    return [...paths].sort();
  }

  /** Every YAML file, parsed on access (prefer `matching`: this reads and keeps every file). */
  all(): IndexedFile[] {
    const out: IndexedFile[] = [];
    for (const p of this.paths()) {
      const f = this.file(p);
      if (f) out.push(f);
    }
    return out;
  }

  /**
   * Reads and tests up to `budget` files not yet seen; true when every file has been seen. The
   * language server calls it in small steps after its first answer, so that later answers that need
   * the workspace find it ready.
   */
  warm(budget: number): boolean {
    // A large tree is listed in steps first (SCAN_ENTRIES_PER_FILE folder entries for each file of budget).
    if (!this.scan(budget * SCAN_ENTRIES_PER_FILE)) return false;
    for (const p of this.paths()) {
      if (budget <= 0) return false;
      if (this.probes.has(p) && !this.overlays.has(p)) continue;
      const skips = this.counts.cacheSkips;
      this.probe(p);
      budget -= this.counts.cacheSkips > skips ? 1 / CACHE_SKIPS_PER_FILE : 1;
    }
    return true;
  }

  /**
   * `fn()`, which reads many files of the index at once, with the large files it reads (STEPWISE_CHARS)
   * parsed in steps (the language server's scheduler, lsp/scheduler.ts): a large file not parsed yet stops
   * `fn` when it reads the file's documents, the file is parsed in steps, and `fn` runs again. A result
   * computed while a file was asked for is never used, whoever caught the stop. For a consumer outside the
   * answers' analyses: the language server's enablement log read an open 6,000-line ApplicationSet (the
   * folders its template deploys) with the library in one go, 100-250 ms with a hover waiting (issue 39).
   */
  *inSteps<T>(fn: () => T): Generator<void, T> {
    for (;;) {
      const outer = asked;
      const these: (() => Generator<void, void>)[] = [];
      asked = these;
      let out: T | undefined;
      try {
        out = fn();
      } catch (e) {
        if (!these.length) throw e;
      } finally {
        asked = outer;
      }
      if (!these.length) return out as T;
      for (const read of these) yield* read();
    }
  }

  /**
   * Parses files of `interests` not parsed yet (`IndexedFile.docs`), until `chars` characters of text have
   * been parsed; true when every one is. Files of STEPWISE_CHARS or more are left to `inSteps`. The language server calls it in small steps
   * once the workspace has been read, for the files its log of the Argo CD installs reads (install/model.ts
   * `INSTALL_MODEL_INTERESTS`), so that the log, computed right after, does not parse them all in one block
   * while a keystroke or a hover waits (issue 39).
   */
  parseAhead(interests: readonly Interest[], chars: number): boolean {
    let parsed = 0;
    for (const interest of interests)
      for (const f of this.matching(interest)) {
        // A large file is left to the log's own reading in steps (`inSteps`): parsed here, it would be one block.
        if (parsedFiles.has(f) || f.text.length >= STEPWISE_CHARS) continue;
        if (parsed && parsed + f.text.length > chars) return false;
        parsed += f.text.length;
        void f.docs;
      }
    return true;
  }

  /**
   * Deferred mode, once: from now on, the first time an answer asks for the files of an interest while
   * the workspace is read (`matchingSoFar`), the files the probe cache knew to pass it and a deferrable
   * interest in an earlier run (a handful: the Argo CD install) are looked at first, before the listing
   * reaches them, so that those answers use them (`matchingSoFar` holds every file looked at). The listing
   * may still add or drop files: `settle()` compares, as for any answer given meanwhile. (Files of the
   * other interests are not read early: their consumers hold their findings until the whole workspace is
   * read, and would only do work that is thrown away, e.g. expand cluster generators over the Secrets.)
   * Only the interests an answer asks for are read: all of them at once made the bench's 1 KiB document
   * read its repository's 44 ApplicationSet files and its AppProjects before answering, which it never
   * asked for (issue 39).
   */
  readKnownWhenAsked(): void {
    if (!this.deferring || this.knownRead) return;
    this.knownRead = true;
  }

  private knownRead = false;

  /**
   * Deferred mode: whether an earlier run knew more than `files` YAML files in this workspace (the probe
   * cache), i.e. it is no small workspace, without listing it to find out (the language server's first
   * answer listed up to 640 entries for that, a stat each). A workspace that shrank since is then only read
   * in the background, as a large one.
   */
  knownLarger(files: number): boolean {
    return this.deferring && (this.options.cache?.known?.() ?? 0) > files;
  }
  /** The interests (bit i: INTERESTS[i]; all bits for one outside them) whose known files were looked at. */
  private knownAsked = 0;
  /** The files the probe cache knew to pass a deferrable interest (see `readKnownWhenAsked`). */
  private knownFiles: string[] | undefined;

  /** See `readKnownWhenAsked`: the known files of `interest` (INTERESTS index `bit`), once per interest. */
  private readKnownOf(bit: number): void {
    const asked = bit >= 0 ? 1 << bit : -1;
    if (!this.deferring || !this.knownRead || (this.knownAsked & asked) === asked) return;
    this.knownAsked |= asked;
    const cache = this.options.cache;
    if (!this.knownFiles) {
      let deferrable = 0;
      INTERESTS.forEach((interest, i) => {
        if (interest.deferrable) deferrable |= 1 << i;
      });
      this.knownFiles = (cache?.passing?.(deferrable) ?? []).filter(isYamlName);
    }
    for (const p of this.knownFiles) if (!this.probes.has(p) && ((cache?.peek?.(p)?.mask ?? -1) & asked) !== 0) this.probe(p);
  }

  /**
   * Looks again, up to `budget` files, at the files known so far that this version has not looked at
   * (one stat each, a read if changed; no listing is made for it): the language server spreads over
   * several steps what the first `matching` of a new version would do at once. True when none is left.
   */
  recheck(budget: number): boolean {
    if (this.rechecked.version !== this.version) this.rechecked = { version: this.version, paths: new Set() };
    const done = this.rechecked.paths;
    for (const [p, probe] of this.probes) {
      if (probe.seen === this.version || done.has(p)) continue;
      if (budget-- <= 0) return false;
      done.add(p);
      this.probe(p);
    }
    return true;
  }

  private rechecked = { version: -1, paths: new Set<string>() };

  /** One file, parsed on access (any extension the caller asks for; read through the host). */
  file(path: string): IndexedFile | undefined {
    const probe = this.probe(path, true);
    return probe?.file;
  }

  /**
   * Why a file that exists is not in the index (over the size limit, not a regular file, unreadable), or
   * undefined when it is read or does not exist: a consumer that needs it says "not read", never "missing".
   */
  notRead(path: string): string | undefined {
    if (this.file(path)) return undefined;
    return this.skipped.get(path);
  }

  /** The cached probe of `path`, read again when its key changed; `keep` keeps its text regardless of interests. */
  private probe(path: string, keep = false): Probe | undefined {
    const seen = this.probes.get(path);
    // Every consumer's `matching` walks the whole listing: the first one of a version checks each file
    // (one stat), the others trust that answer, as the per-version `matches` cache already does.
    if (seen && seen.seen === this.version && (seen.file || !keep)) return seen;
    const overlay = this.overlays.get(path);
    let key: string;
    if (overlay !== undefined) key = this.overlayKeys.get(path) ?? 'o:0';
    else {
      this.counts.statted++;
      const st = this.host.stat(path);
      if (!st) return undefined;
      if (!st.isFile || st.size > MAX_FILE_SIZE) {
        this.skipped.set(
          path,
          st.isFile
            ? `it is ${(st.size / (1024 * 1024)).toFixed(1)} MB, larger than the ${MAX_FILE_SIZE / (1024 * 1024)} MB limit`
            : 'it is not a regular file',
        );
        return undefined;
      }
      key = 'd:' + st.mtimeMs + ':' + st.size;
    }
    const hit = this.probes.get(path);
    if (hit && hit.key === key && (hit.file || !keep)) {
      hit.seen = this.version;
      return hit;
    }
    // What an earlier run found for the same file unchanged (its key: mtime and size; the cache is
    // dropped when an interest's test changes, host/indexCache.ts).
    const saved = overlay === undefined && this.prefilter ? this.options.cache?.get(path) : undefined;
    const known = saved && saved.key === key ? saved.mask : undefined;
    if (!keep && known === 0) {
      // Known to pass no interest: not even read.
      const probe = { key, mask: 0, seen: this.version };
      this.probes.set(path, probe);
      this.counts.cacheSkips++;
      return probe;
    }
    const text = overlay ?? this.host.readFile(path);
    if (overlay === undefined) this.counts.read++;
    if (text === undefined) {
      this.skipped.set(path, 'it could not be read');
      return undefined;
    }
    this.skipped.delete(path);
    // Known to pass some: read, not tested again (six patterns over each of the files the first answer
    // reads early, readKnownWhenAsked: a fifth of its CPU on the bench's 1 KiB document, issue 39).
    let mask = known ?? 0;
    if (known === undefined)
      INTERESTS.forEach((interest, i) => {
        if (interest.test(text, path)) mask |= 1 << i;
      });
    const probe: Probe = { key, mask, seen: this.version };
    if (mask || keep || !this.prefilter) probe.file = indexedFile(path, text, this.counts);
    this.probes.set(path, probe);
    if (overlay === undefined) this.options.cache?.set(path, key, mask);
    return probe;
  }

  /**
   * What the workspace scan left out, one sentence each: caps reached, files over the size limit or
   * not readable. Features that report "nothing found" add these, so a cap is never silent.
   */
  scanNotes(onlyIfScanned = false): string[] {
    // The CLI asks after its run: a run that never needed the workspace does not scan it just to say so.
    if (onlyIfScanned && !this.listing && !this.skipped.size) return [];
    if (!onlyIfScanned) this.list();
    const files = [...this.skipped].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    // Workspace-relative, as every message shows a path (never the machine's own folders).
    const shown = files.slice(0, 5).map(([p, why]) => `${relativePath(this.host.roots(), p)} was not read: ${why}`);
    if (files.length > 5) shown.push(`${files.length - 5} more files were not read`);
    return [...this.listingNotes, ...shown];
  }

  /**
   * The bounds the listing reached (YAML files, folder entries, depth, Terraform files), one sentence
   * each, without the files skipped one by one (`scanNotes` has both): files that were never looked at.
   */
  listingCaps(): string[] {
    this.list();
    return [...this.listingNotes];
  }

  /** How far the listing is: folder entries looked at, and whether it is complete (tests, `APPSET_DEBUG`). */
  get scanned(): { entries: number; complete: boolean } {
    return { entries: this.scanning?.entries ?? (this.listing ? this.listingEntries : 0), complete: !!this.listing };
  }

  private listingEntries = 0;

  /** The listing so far (see `scan`), or nothing before the first step. */
  private scanning: Scan | undefined;

  /**
   * Advances the listing of the workspace by up to `budget` units of work (a folder read, a name
   * looked at); true when the listing is complete. The language server lists a large tree (100,000
   * folders) in such steps between requests; `list()` runs it to its end in one go (the CLI, a consumer
   * that needs every file now). Folders are walked depth first in name order, as one recursive walk would.
   */
  scan(budget: number): boolean {
    if (this.listing) return true;
    const sc = (this.scanning ??= this.startScan());
    // The budget counts the host's work: a folder read, a name looked at (at most one stat).
    while (sc.stack.length) {
      const top = sc.stack[sc.stack.length - 1];
      if (!top.names && top.depth > MAX_SCAN_DEPTH) {
        sc.deepest ??= top.dir;
        sc.stack.pop();
        continue;
      }
      if (top.names && top.next >= top.names.length) {
        sc.stack.pop();
        continue;
      }
      if (budget-- <= 0) return false;
      if (!top.names) {
        top.names = this.host.readDir(top.dir)?.sort() ?? [];
        continue;
      }
      if (sc.out.length >= MAX_FILES || ++sc.entries > MAX_SCAN_ENTRIES) {
        // A cap ends the whole walk.
        sc.stack.length = 0;
        break;
      }
      const name = top.names[top.next++];
      const p = top.dir.endsWith('/') ? top.dir + name : top.dir + '/' + name;
      if (isYamlName(name)) {
        sc.out.push(p);
        continue;
      }
      if (isTerraformName(name)) {
        if (sc.terraform.length < MAX_TERRAFORM_FILES) sc.terraform.push(p);
        else sc.terraformCapped ??= p;
        continue;
      }
      if (name.startsWith('.') || SKIPPED_FOLDERS.has(name)) continue;
      const st = this.host.stat(p);
      if (!st?.isDirectory) continue;
      // Each folder once, by identity: symlinked folders that loop back (`ln -s . l1`) are not rescanned.
      if (st.id !== undefined) {
        if (sc.visited.has(st.id)) continue;
        sc.visited.add(st.id);
      }
      sc.stack.push({ dir: p, depth: top.depth + 1, next: 0 });
    }
    this.finishScan(sc);
    return true;
  }

  private startScan(): Scan {
    const visited = new Set<string>();
    const roots = this.host.roots();
    for (const r of roots) {
      const st = this.host.stat(r);
      if (st?.id !== undefined) visited.add(st.id);
    }
    // The first root on top: roots are walked in order.
    const stack: ScanFrame[] = roots.map((dir) => ({ dir, depth: 0, next: 0 })).reverse();
    return { stack, out: [], terraform: [], entries: 0, visited };
  }

  private finishScan(sc: Scan): void {
    const { out, deepest } = sc;
    const notes: string[] = [];
    // Workspace-relative, as every message shows a path (never the machine's own folders).
    const rel = (p: string) => relativePath(this.host.roots(), p);
    if (out.length >= MAX_FILES)
      notes.push(
        `the workspace scan stopped at ${MAX_FILES.toLocaleString('en-US')} YAML files (the last one read: ${rel(out[out.length - 1])}); later files were not read`,
      );
    else if (sc.entries > MAX_SCAN_ENTRIES)
      notes.push(`the workspace scan stopped after ${MAX_SCAN_ENTRIES.toLocaleString('en-US')} folder entries; later files were not read`);
    if (deepest)
      notes.push(`folders more than ${MAX_SCAN_DEPTH} levels below the workspace root were not scanned (first: ${rel(deepest)})`);
    if (sc.terraformCapped)
      notes.push(
        `the workspace scan read ${MAX_TERRAFORM_FILES} Terraform files; later ones were not read (first: ${rel(sc.terraformCapped)})`,
      );
    this.listingNotes = notes;
    this.terraformListing = sc.terraform;
    this.listing = out;
    this.scanning = undefined;
    this.listingEntries = sc.entries;
    this.counts.listed = out.length;
  }

  private list(): string[] {
    while (!this.scan(Infinity));
    return this.listing!;
  }
}

interface ScanFrame {
  dir: string;
  depth: number;
  /** The folder's names, sorted (read at the frame's first step). */
  names?: string[];
  /** The next name to look at. */
  next: number;
}

interface Scan {
  stack: ScanFrame[];
  out: string[];
  /** Terraform files listed (see `terraformFiles`). */
  terraform: string[];
  terraformCapped?: string;
  entries: number;
  visited: Set<string>;
  deepest?: string;
}

/** Files of at least this many characters are parsed in steps within `WorkspaceIndex.inSteps` (16 KiB: a few ms of the library's parse). */
export const STEPWISE_CHARS = 16 * 1024;

/** Within `WorkspaceIndex.inSteps`: the large files its function asked for before they were parsed (see there). */
let asked: (() => Generator<void, void>)[] | undefined;

/** What stops the function of `inSteps` at a large file not parsed yet. */
const READ_IN_STEPS = new Error('a large file is parsed in steps first (WorkspaceIndex.inSteps)');
/** The files whose documents have been parsed (`WorkspaceIndex.parseAhead` skips them). */
const parsedFiles = new WeakSet<IndexedFile>();

function indexedFile(path: string, text: string, counts: { parsed: number }): IndexedFile {
  let read: FileRead | undefined;
  function* readSteps(): Generator<void, void> {
    if (read) return;
    const r = yield* parseDocsSteps(text);
    if (read) return;
    counts.parsed++;
    read = r;
    parsedFiles.add(file);
  }
  /**
   * A large file's documents read in steps for `readDocs` within `inSteps`: handed over once and not kept
   * (`readDocs` keeps nothing, install/installers.ts `appSetDeploys`).
   */
  let stepRead: FileRead | undefined;
  function* readOnceSteps(): Generator<void, void> {
    if (read || stepRead) return;
    const r = yield* parseDocsSteps(text);
    counts.parsed++;
    stepRead = r;
  }
  const parsed = () => {
    if (!read) {
      if (asked && text.length >= STEPWISE_CHARS) {
        asked.push(readSteps);
        throw READ_IN_STEPS;
      }
      counts.parsed++;
      read = parseDocs(text);
      parsedFiles.add(file);
    }
    return read;
  };
  const file: IndexedFile = {
    path,
    text,
    get docs() {
      return parsed().docs;
    },
    get unread() {
      return parsed().unread;
    },
    get invalid() {
      return parsed().invalid;
    },
    get parsed() {
      return parsed().parsed;
    },
    readDocs() {
      if (read) return read.docs;
      if (stepRead) {
        const docs = stepRead.docs;
        stepRead = undefined;
        return docs;
      }
      if (asked && text.length >= STEPWISE_CHARS) {
        asked.push(readOnceSteps);
        throw READ_IN_STEPS;
      }
      counts.parsed++;
      return parseDocs(text).docs;
    },
  };
  return file;
}

type FileRead = { docs: IndexedDoc[]; unread: UnreadDoc[]; invalid: InvalidDoc[]; parsed: YamlDocument[] };

function parseDocs(text: string): FileRead {
  // Read by the fast reader where it can (yaml/parse.ts `readDocuments`): its value is the library's.
  const read = readDocuments(text);
  return sortDocs(
    read.map((r) => r.doc),
    (d, index) => {
      const fast = read[index].value;
      return fast !== undefined ? fast : d.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
    },
  );
}

/** `parseDocs` in steps (yaml/parse.ts `parseDocumentsSteps`): the same documents and values. */
function* parseDocsSteps(text: string): Generator<void, FileRead> {
  const read = yield* parseDocumentsSteps(text);
  const values = new Map<YamlDocument, { value: unknown } | { error: unknown }>();
  for (const d of read.docs) {
    if (d.errors.length) continue;
    try {
      values.set(d, { value: yield* read.valueSteps(d) });
    } catch (error) {
      values.set(d, { error });
    }
  }
  return sortDocs(read.docs, (d) => {
    const v = values.get(d)!;
    if ('error' in v) throw v.error;
    return v.value;
  });
}

/** The documents that read into values, those that do not (`value` throws), and the invalid ones. */
function sortDocs(parsed: YamlDocument[], value: (d: YamlDocument, index: number) => unknown): FileRead {
  const docs: IndexedDoc[] = [];
  const unread: UnreadDoc[] = [];
  const invalid: InvalidDoc[] = [];
  parsed.forEach((d, index) => {
    if (d.errors.length) {
      const e = d.errors[0];
      invalid.push({ index, span: { start: e.pos[0], end: e.pos[1] }, why: e.message, code: e.code });
      return;
    }
    const r = d.range ?? [0, 0, 0];
    const span = { start: r[0], end: r[1] };
    try {
      docs.push({ index, value: value(d, index) as Json, span });
    } catch (e) {
      // An alias bomb (the library refuses past MAX_ALIAS_COUNT expansions): kept as unread, so the
      // consumer that needed it says so (generators/inventory.ts), instead of a silent skip. The
      // library's every alias refusal is a ReferenceError (nodes/Alias.ts), and nothing else it throws is.
      const why =
        e instanceof ReferenceError
          ? `it expands more than ${MAX_ALIAS_COUNT} YAML aliases (a resource-exhaustion guard)`
          : 'its YAML cannot be turned into values';
      unread.push({ index, span, why });
    }
  });
  return { docs, unread, invalid, parsed };
}
