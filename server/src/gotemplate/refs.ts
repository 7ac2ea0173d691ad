/**
 * Static analysis: which params a goTemplate references. Follows dot through `with` and through
 * variables bound to resolvable pipelines; inside `range` the element is unknown, so only `$…`
 * references count there. `index X "k" 1` extends X's path with its constant keys.
 */
import type { Node, PipeNode, CommandNode, ListNode } from './ast';
import type { Tree } from './parse';
import { Lexer, T } from './lexer';

/** A param reference found by static analysis, with its position inside the template string. */
export interface ParamRef {
  /** Path from the root, e.g. ['metadata', 'labels', 'tier'] for `.metadata.labels.tier` or `index .metadata.labels "tier"`. In fasttemplate mode, a single flat key. */
  path: string[];
  offset: number;
  length: number;
  /**
   * True when a missing value prints nothing here: the reference is tested (`if`/`with`/`range`
   * conditions and what they guard, `hasKey`), or falls back (`default`, `coalesce`, `dig`,
   * `ternary`, `empty`, `and`/`or`/`not`, also when piped into them).
   */
  guarded?: boolean;
}

type Path = string[] | null;

/**
 * Functions whose arguments may be missing without printing <no value>: they test, pick or fall
 * back (`default`, `coalesce`, `hasKey`, `dig`, `ternary`, `empty`, and the boolean `and`/`or`/`not`).
 */
const GUARD_FUNCS = new Set(['default', 'coalesce', 'hasKey', 'dig', 'ternary', 'empty', 'and', 'or', 'not']);

const MAX_TEMPLATE_VISITS = 200;

class Analyzer {
  refs: ParamRef[] = [];
  visits = 0;
  /** > 0 while analysing a condition or a guard function's arguments: a missing value prints nothing there. */
  guarding = 0;
  /** Paths tested by the enclosing `if`/`with` conditions: below them, references only run when present. */
  tested: string[][] = [];
  /** Paths a `hasKey X "k"` in the current condition proves present (X.k). */
  proven: string[][] = [];
  constructor(readonly trees: Map<string, Tree>) {}

  add(path: string[], node: Node, offset = node.start ?? node.pos, end = node.end): void {
    if (path.length === 0) return;
    const guarded = this.guarding > 0 || this.tested.some((t) => t.length <= path.length && t.every((s, i) => s === path[i]));
    this.refs.push({ path, offset, length: Math.max(1, end - offset), ...(guarded ? { guarded } : {}) });
  }

  /** Analyses a condition; returns the paths it tests (its references and what hasKey proves). */
  condition(p: PipeNode, dot: Path, vars: Map<string, Path>): { result: Path; tested: string[][] } {
    const before = this.refs.length;
    const proven = this.proven;
    this.proven = [];
    this.guarding++;
    const result = this.pipe(p, dot, vars);
    this.guarding--;
    const tested = [...this.refs.slice(before).map((r) => r.path), ...this.proven];
    this.proven = proven;
    return { result, tested };
  }

  /** Analyses a list below a condition that tested `paths`. */
  guardedList(l: ListNode | null, dot: Path, vars: Map<string, Path>, paths: string[][]): void {
    const saved = this.tested;
    this.tested = [...saved, ...paths];
    this.list(l, dot, vars);
    this.tested = saved;
  }

  list(l: ListNode | null, dot: Path, vars: Map<string, Path>): void {
    if (!l) return;
    // Variables declared in a list stay visible until its end.
    const scope = new Map(vars);
    for (const n of l.nodes) this.node(n, dot, scope);
  }

  node(n: Node, dot: Path, vars: Map<string, Path>): void {
    switch (n.kind) {
      case 'action':
        this.pipe(n.pipe, dot, vars);
        return;
      case 'if': {
        const c = this.condition(n.pipe, dot, vars);
        this.guardedList(n.list, dot, vars, c.tested);
        this.list(n.elseList, dot, vars);
        return;
      }
      case 'with': {
        const inner = new Map(vars);
        const c = this.condition(n.pipe, dot, inner);
        this.guardedList(n.list, c.result, inner, c.tested);
        this.list(n.elseList, dot, vars);
        return;
      }
      case 'range': {
        const inner = new Map(vars);
        // Ranging over a missing value runs no iteration: nothing prints.
        this.condition(n.pipe, dot, inner);
        for (const d of n.pipe.decl) inner.set(d.ident[0], null);
        this.list(n.list, null, inner);
        this.list(n.elseList, dot, vars);
        return;
      }
      case 'template': {
        const p = n.pipe ? this.pipe(n.pipe, dot, vars) : null;
        const tree = this.trees.get(n.name);
        if (tree && p && this.visits++ < MAX_TEMPLATE_VISITS) this.list(tree.root, p, new Map([['$', p]]));
        return;
      }
    }
  }

  /** Analyzes a pipeline; returns the path it evaluates to when it is a plain param access. */
  pipe(p: PipeNode, dot: Path, vars: Map<string, Path>): Path {
    let result: Path = null;
    // `.x | default "a"`: a value piped into a guard function may be missing.
    const intoGuard = p.cmds.slice(1).some((c) => isGuardCall(c));
    p.cmds.forEach((c, i) => {
      if (i === 0 && intoGuard) this.guarding++;
      const r = this.command(c, dot, vars);
      if (i === 0 && intoGuard) this.guarding--;
      result = i === 0 ? r : null;
    });
    for (const d of p.decl) vars.set(d.ident[0], p.decl.length === 1 ? result : null);
    return result;
  }

  command(c: CommandNode, dot: Path, vars: Map<string, Path>): Path {
    const first = c.args[0];
    if (isGuardCall(c)) {
      this.guarding++;
      try {
        if (first.kind === 'identifier' && first.ident === 'hasKey' && c.args.length === 3 && c.args[2].kind === 'string') {
          const base = this.operand(c.args[1], dot, vars, false);
          if (base) this.proven.push([...base, c.args[2].text]);
        }
        c.args.slice(1).forEach((a) => this.operand(a, dot, vars, true));
      } finally {
        this.guarding--;
      }
      return null;
    }
    if (first.kind === 'identifier' && first.ident === 'index' && c.args.length >= 2) {
      const base = this.operand(c.args[1], dot, vars, false);
      let path: Path = base ? [...base] : null;
      for (const a of c.args.slice(2)) {
        if (path && a.kind === 'string') path.push(a.text);
        else if (path && a.kind === 'number' && a.isInt) path.push(String(a.int64));
        else {
          if (path) this.add(path, c.args[1]);
          path = null;
          this.operand(a, dot, vars, true);
        }
      }
      if (path) this.add(path, c, c.pos, c.end);
      return path;
    }
    let r: Path = null;
    c.args.forEach((a, i) => {
      const v = this.operand(a, dot, vars, true);
      if (i === 0 && c.args.length === 1) r = v;
    });
    return r;
  }

  /** Resolves an operand to a path; records it as a reference when `record`. */
  operand(a: Node, dot: Path, vars: Map<string, Path>, record: boolean): Path {
    let path: Path = null;
    switch (a.kind) {
      case 'dot':
        return dot;
      case 'field':
        path = dot ? [...dot, ...a.ident] : null;
        break;
      case 'variable': {
        const base = vars.has(a.ident[0]) ? vars.get(a.ident[0])! : a.ident[0] === '$' ? [] : null;
        path = base ? [...base, ...a.ident.slice(1)] : null;
        if (a.ident.length === 1) return path;
        break;
      }
      case 'pipe':
        return this.pipe(a, dot, new Map(vars));
      case 'chain': {
        const base = this.operand(a.node, dot, vars, false);
        path = base ? [...base, ...a.field] : null;
        break;
      }
      default:
        return null;
    }
    if (path && record) this.add(path, a);
    return path;
  }
}

function isGuardCall(c: CommandNode): boolean {
  const first = c.args[0];
  return first?.kind === 'identifier' && GUARD_FUNCS.has(first.ident);
}

export function analyzeRefs(trees: Map<string, Tree>, root: string): ParamRef[] {
  const t = trees.get(root);
  if (!t) return [];
  const a = new Analyzer(trees);
  a.list(t.root, [], new Map([['$', []]]));
  return a.refs;
}

/** For templates that do not parse: field tokens (`.a.b`) read straight from the lexer, rooted at dot. */
export function fallbackRefs(template: string): ParamRef[] {
  const lex = new Lexer(template, true, true);
  const refs: ParamRef[] = [];
  let chain: { start: number; end: number; path: string[] } | null = null;
  const flush = () => {
    if (chain) refs.push({ path: chain.path, offset: chain.start, length: chain.end - chain.start });
    chain = null;
  };
  for (let i = 0; i < 100_000; i++) {
    const it = lex.nextItem();
    if (it.typ === T.EOF || it.typ === T.Error) break;
    if (it.typ === T.Field) {
      if (chain && (chain as { end: number }).end === it.pos) {
        const c = chain as { end: number; path: string[] };
        c.path.push(it.val.slice(1));
        c.end = it.pos + it.val.length;
      } else {
        flush();
        chain = { start: it.pos, end: it.pos + it.val.length, path: [it.val.slice(1)] };
      }
    } else flush();
  }
  flush();
  return refs;
}
