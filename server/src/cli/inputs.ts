/**
 * The command line's input paths as files: named files, and the YAML files found in named folders.
 * One walk for `appset lint` and `appset instances` (and the folder walk `appset diff` uses for the
 * work tree), so every command finds and reads the same files the same way.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { compareGoStrings, SKIPPED_FOLDERS } from '@appset-tools/engine';
import { readTextFile, readTextFileWithin, type ReadResult } from '../host/files';
import type { CliIO } from './io';

/** Bound on the YAML files one folder walk collects. */
export const MAX_WALK_FILES = 20000;

/**
 * Collects the `*.yaml`/`*.yml` files below `dir` in name order, skipping `node_modules` and `.git`;
 * symlinked folders are not followed (no loops, no escaping the tree). Stops at MAX_WALK_FILES.
 */
export function walkYaml(dir: string, out: string[]): void {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  entries.sort((a, b) => compareGoStrings(a.name, b.name));
  for (const e of entries) {
    if (out.length >= MAX_WALK_FILES) return;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (!SKIPPED_FOLDERS.has(e.name)) walkYaml(p, out);
    } else if (/\.ya?ml$/i.test(e.name)) out.push(p); // FIFOs, devices…: readTextFile says why they are skipped
  }
}

/** One input file: named on the command line, or found in a named folder (`folder`). */
export interface InputFile {
  abs: string;
  named: boolean;
  folder?: string;
}

export interface Inputs {
  files: InputFile[];
  /** The inputs that exist, as given. */
  existing: string[];
  /** The inputs that do not exist: as given, and absolute. */
  missing: { input: string; abs: string }[];
}

/**
 * The files of `inputs` (relative to `cwd`): a file as named, a folder walked for its YAML files in
 * name order. When a walk reached MAX_WALK_FILES, `appset <command>` says so on standard error.
 */
export function collectInputs(command: string, inputs: readonly string[], io: CliIO): Inputs {
  const out: Inputs = { files: [], existing: [], missing: [] };
  for (const input of inputs) {
    const abs = path.resolve(io.cwd, input);
    let st: fs.Stats;
    try {
      st = fs.statSync(abs);
    } catch {
      out.missing.push({ input, abs });
      continue;
    }
    out.existing.push(input);
    if (st.isDirectory()) {
      const found: string[] = [];
      walkYaml(abs, found);
      for (const f of found) out.files.push({ abs: f, named: false, folder: abs });
    } else out.files.push({ abs, named: true });
  }
  if (out.files.length >= MAX_WALK_FILES) io.err(`appset ${command}: stopped after ${MAX_WALK_FILES} files in a folder\n`);
  return out;
}

/**
 * An input's text (host/files.ts: regular files only, size-capped, never blocking). A file found in a
 * folder is read only when it really lies inside that folder: a link out of it is not followed.
 */
export function readInput(f: InputFile): ReadResult {
  return f.folder ? readTextFileWithin(f.abs, [f.folder]) : readTextFile(f.abs);
}
