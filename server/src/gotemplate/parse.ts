/**
 * Parser for Go text/template (text/template/parse parse.go of Go 1.26: `else with`, `break`,
 * `continue`, range declarations and assignments). Produces a set of named trees; parse errors are
 * thrown as `GoParseError` with Go's exact text and the offset of the offending token.
 */
import { goString } from './values';
import { Lexer, T, type Item, formatRuneU } from './lexer';
import { goQuote } from './format';
import type { BranchNode, ChainNode, CommandNode, ListNode, Node, NumberNode, PipeNode, TemplateNode, VariableNode } from './ast';
import { str } from './ast';
import type { TemplateReason } from './reason';
import { GoPlacedError } from './errors';

/** A parse error at a token of the template (errors.ts `GoPlacedError`). */
export class GoParseError extends GoPlacedError {}

export interface Tree {
  name: string;
  root: ListNode;
}

/** Nesting cap for parenthesised pipelines (Go: maxStackDepth = 10000); lower here to spare the JS stack. */
const MAX_PAREN_DEPTH = 1000;

/** `%q` of a lexer item as Go's item.String() prints it in "unexpected" errors. */
function itemString(i: Item): string {
  if (i.typ === T.EOF) return 'EOF';
  if (i.typ === T.Error) return i.val;
  if (i.typ > T.Keyword) return `<${i.val}>`;
  if ([...i.val].length > 10) return goQuote([...i.val].slice(0, 10).join('')) + '...';
  return goQuote(i.val);
}

/** The Go version whose text/template this parser follows unless told otherwise (1.26). */
export const GO_MINOR_DEFAULT = 26;

class Parser {
  lex: Lexer;
  token: Item[] = [];
  peekCount = 0;
  vars: string[] = ['$'];
  actionLine = 0;
  rangeDepth = 0;
  stackDepth = 0;
  name: string;

  constructor(
    readonly text: string,
    readonly parseName: string,
    readonly hasFunction: (name: string) => boolean,
    readonly treeSet: Map<string, Tree>,
    lex?: Lexer,
    /** Go minor version modelled (`{{else with}}` exists from Go 1.23). */
    readonly goMinor = GO_MINOR_DEFAULT,
  ) {
    this.name = parseName;
    this.lex = lex ?? new Lexer(text, !hasFunction('break'), !hasFunction('continue'));
    this.token = [this.eofItem(), this.eofItem(), this.eofItem()];
  }

  eofItem(): Item {
    return { typ: T.EOF, pos: 0, val: '', line: 1 };
  }

  /** A parser for a nested define/block sharing this one's lexer. */
  child(): Parser {
    const p = new Parser(this.text, this.parseName, this.hasFunction, this.treeSet, this.lex, this.goMinor);
    return p;
  }

  next(): Item {
    if (this.peekCount > 0) this.peekCount--;
    else this.token[0] = this.lex.nextItem();
    return this.token[this.peekCount];
  }
  backup(): void {
    this.peekCount++;
  }
  backup2(t1: Item): void {
    this.token[1] = t1;
    this.peekCount = 2;
  }
  backup3(t2: Item, t1: Item): void {
    this.token[1] = t1;
    this.token[2] = t2;
    this.peekCount = 3;
  }
  peek(): Item {
    if (this.peekCount > 0) return this.token[this.peekCount - 1];
    this.peekCount = 1;
    this.token[0] = this.lex.nextItem();
    return this.token[0];
  }
  nextNonSpace(): Item {
    let t: Item;
    do t = this.next();
    while (t.typ === T.Space);
    return t;
  }
  peekNonSpace(): Item {
    const t = this.nextNonSpace();
    this.backup();
    return t;
  }

  errorf(msg: string, at?: Item | Node, reason?: TemplateReason): never {
    const tok = this.token[0];
    const pos = at ? at.pos : tok.pos;
    const len = at ? ('typ' in at ? at.val.length : Math.max(1, at.end - at.pos)) : Math.max(1, tok.typ === T.Error ? 1 : tok.val.length);
    throw new GoParseError(`template: ${this.parseName}:${tok.line}: ${msg}`, pos, len, reason, { line: tok.line, detail: msg });
  }

  expect(expected: T, context: string): Item {
    const tok = this.nextNonSpace();
    if (tok.typ !== expected) this.unexpected(tok, context);
    return tok;
  }

  expectOneOf(e1: T, e2: T, context: string): Item {
    const tok = this.nextNonSpace();
    if (tok.typ !== e1 && tok.typ !== e2) this.unexpected(tok, context);
    return tok;
  }

  unexpected(tok: Item, context: string, reason?: TemplateReason): never {
    if (tok.typ === T.Error) {
      let extra = '';
      if (this.actionLine !== 0 && this.actionLine !== tok.line) {
        extra = ` in action started at ${this.parseName}:${this.actionLine}`;
        if (tok.val.endsWith(' action')) extra = extra.slice(' in action'.length);
      }
      this.errorf(`${tok.val}${extra}`, tok);
    }
    this.errorf(`unexpected ${itemString(tok)} in ${context}`, tok, reason);
  }

  add(root: ListNode): void {
    const tree = this.treeSet.get(this.name);
    if (!tree || isEmptyTree(tree.root)) {
      this.treeSet.set(this.name, { name: this.name, root });
      return;
    }
    if (!isEmptyTree(root)) this.errorf(`template: multiple definition of template ${goQuote(this.name)}`);
  }

  list(pos: number): ListNode {
    return { kind: 'list', pos, end: pos, nodes: [] };
  }

  parse(): void {
    const root = this.list(this.peek().pos);
    while (this.peek().typ !== T.EOF) {
      if (this.peek().typ === T.LeftDelim) {
        const delim = this.next();
        if (this.nextNonSpace().typ === T.Define) {
          const p = this.child();
          p.parseDefinition();
          continue;
        }
        this.backup2(delim);
      }
      const n = this.textOrAction();
      if (n.kind === 'end' || n.kind === 'else') this.errorf(`unexpected ${str(n)}`, n);
      root.nodes.push(n);
      root.end = n.end;
    }
    this.add(root);
  }

  parseDefinition(): void {
    const context = 'define clause';
    const name = this.expectOneOf(T.String, T.RawString, context);
    this.name = this.unquote(name);
    this.expect(T.RightDelim, context);
    const [root, end] = this.itemList();
    if (end.kind !== 'end') this.errorf(`unexpected ${str(end)} in ${context}`, end);
    this.add(root);
  }

  unquote(tok: Item): string {
    const s = unquoteGo(tok.val);
    if (s === undefined) this.errorf('invalid syntax', tok);
    return s;
  }

  itemList(): [ListNode, Node] {
    const list = this.list(this.peekNonSpace().pos);
    while (this.peekNonSpace().typ !== T.EOF) {
      const n = this.textOrAction();
      if (n.kind === 'end' || n.kind === 'else') return [list, n];
      list.nodes.push(n);
      list.end = n.end;
    }
    this.errorf('unexpected EOF');
  }

  textOrAction(): Node {
    const tok = this.nextNonSpace();
    switch (tok.typ) {
      case T.Text:
        return { kind: 'text', pos: tok.pos, end: tok.pos + tok.val.length, text: tok.val };
      case T.LeftDelim:
        this.actionLine = tok.line;
        try {
          return this.action();
        } finally {
          this.actionLine = 0;
        }
      default:
        this.unexpected(tok, 'input');
    }
  }

  action(): Node {
    const tok = this.nextNonSpace();
    switch (tok.typ) {
      case T.Block:
        return this.blockControl();
      case T.Break:
        return this.breakControl(tok, 'break');
      case T.Continue:
        return this.breakControl(tok, 'continue');
      case T.Else:
        return this.elseControl();
      case T.End:
        return this.endControl();
      case T.If:
        return this.branch('if');
      case T.Range:
        return this.branch('range');
      case T.Template:
        return this.templateControl();
      case T.With:
        return this.branch('with');
    }
    this.backup();
    const first = this.peek();
    const pipe = this.pipeline('command', T.RightDelim);
    return { kind: 'action', pos: first.pos, end: pipe.end, pipe };
  }

  breakControl(tok: Item, word: 'break' | 'continue'): Node {
    const t = this.nextNonSpace();
    if (t.typ !== T.RightDelim) this.unexpected(t, `{{${word}}}`);
    if (this.rangeDepth === 0) this.errorf(`{{${word}}} outside {{range}}`, tok);
    return { kind: word, pos: tok.pos, end: tok.pos + tok.val.length };
  }

  pipeline(context: string, end: T): PipeNode {
    const tok = this.peekNonSpace();
    const pipe: PipeNode = { kind: 'pipe', pos: tok.pos, end: tok.pos, isAssign: false, decl: [], cmds: [] };
    decls: for (;;) {
      const v = this.peekNonSpace();
      if (v.typ === T.Variable) {
        this.next();
        const tokenAfterVariable = this.peek();
        const next = this.peekNonSpace();
        if (next.typ === T.Assign || next.typ === T.Declare) {
          pipe.isAssign = next.typ === T.Assign;
          this.nextNonSpace();
          pipe.decl.push(this.variable(v.pos, v.val));
          this.vars.push(v.val);
        } else if (next.typ === T.Char && next.val === ',') {
          this.nextNonSpace();
          pipe.decl.push(this.variable(v.pos, v.val));
          this.vars.push(v.val);
          if (context === 'range' && pipe.decl.length < 2) {
            const p = this.peekNonSpace().typ;
            if (p === T.Variable || p === T.RightDelim || p === T.RightParen) continue decls;
            this.errorf('range can only initialize variables');
          }
          this.errorf(`too many declarations in ${context}`);
        } else if (tokenAfterVariable.typ === T.Space) {
          this.backup3(v, tokenAfterVariable);
        } else {
          this.backup2(v);
        }
      }
      break;
    }
    for (;;) {
      const t = this.nextNonSpace();
      switch (t.typ) {
        case end:
          this.checkPipeline(pipe, context);
          return pipe;
        case T.Bool:
        case T.CharConstant:
        case T.Complex:
        case T.Dot:
        case T.Field:
        case T.Identifier:
        case T.Number:
        case T.Nil:
        case T.RawString:
        case T.String:
        case T.Variable:
        case T.LeftParen: {
          this.backup();
          const cmd = this.command();
          pipe.cmds.push(cmd);
          pipe.end = cmd.end;
          break;
        }
        default:
          this.unexpected(t, context);
      }
    }
  }

  checkPipeline(pipe: PipeNode, context: string): void {
    if (pipe.cmds.length === 0) this.errorf(`missing value for ${context}`);
    pipe.cmds.slice(1).forEach((c, i) => {
      const k = c.args[0].kind;
      if (k === 'bool' || k === 'dot' || k === 'nil' || k === 'number' || k === 'string')
        this.errorf(`non executable command in pipeline stage ${i + 2}`, c);
    });
  }

  branch(context: 'if' | 'range' | 'with'): BranchNode {
    const mark = this.vars.length;
    try {
      const pipe = this.pipeline(context, T.RightDelim);
      if (context === 'range') this.rangeDepth++;
      const [list, first] = this.itemList();
      let next = first;
      if (context === 'range') this.rangeDepth--;
      let elseList: ListNode | null = null;
      if (next.kind === 'else') {
        if (context === 'if' && this.peek().typ === T.If) {
          this.next();
          elseList = this.list(next.pos);
          const inner = this.branch('if');
          elseList.nodes.push(inner);
        } else if (context === 'with' && this.peek().typ === T.With) {
          this.next();
          elseList = this.list(next.pos);
          const inner = this.branch('with');
          elseList.nodes.push(inner);
        } else {
          [elseList, next] = this.itemList();
          if (next.kind !== 'end') this.errorf(`expected end; found ${str(next)}`, next);
        }
      }
      return { kind: context, pos: pipe.pos, end: pipe.end, pipe, list, elseList };
    } finally {
      this.vars.length = mark;
    }
  }

  endControl(): Node {
    const t = this.expect(T.RightDelim, 'end');
    return { kind: 'end', pos: t.pos, end: t.pos };
  }

  elseControl(): Node {
    const peek = this.peekNonSpace();
    // `{{else with}}` is Go 1.23's; before, `with` after `else` is "unexpected <with> in else".
    if (peek.typ === T.If || (peek.typ === T.With && this.goMinor >= 23)) return { kind: 'else', pos: peek.pos, end: peek.pos };
    if (peek.typ === T.With) this.unexpected(this.nextNonSpace(), 'else', { kind: 'else-with' });
    const t = this.expect(T.RightDelim, 'else');
    return { kind: 'else', pos: t.pos, end: t.pos };
  }

  blockControl(): Node {
    const context = 'block clause';
    const tok = this.nextNonSpace();
    const name = this.templateName(tok, context);
    const pipe = this.pipeline(context, T.RightDelim);
    const block = this.child();
    block.name = name;
    const [root, end] = block.itemList();
    if (end.kind !== 'end') this.errorf(`unexpected ${str(end)} in ${context}`, end);
    block.add(root);
    return this.templateNode(tok, name, pipe);
  }

  templateControl(): Node {
    const context = 'template clause';
    const tok = this.nextNonSpace();
    const name = this.templateName(tok, context);
    let pipe: PipeNode | null = null;
    if (this.nextNonSpace().typ !== T.RightDelim) {
      this.backup();
      pipe = this.pipeline(context, T.RightDelim);
    }
    return this.templateNode(tok, name, pipe);
  }

  templateNode(tok: Item, name: string, pipe: PipeNode | null): TemplateNode {
    return { kind: 'template', pos: tok.pos, end: pipe ? pipe.end : tok.pos + tok.val.length, name, pipe };
  }

  templateName(tok: Item, context: string): string {
    if (tok.typ === T.String || tok.typ === T.RawString) return this.unquote(tok);
    this.unexpected(tok, context);
  }

  command(): CommandNode {
    const cmd: CommandNode = { kind: 'command', pos: this.peekNonSpace().pos, end: 0, args: [] };
    for (;;) {
      this.peekNonSpace();
      const operand = this.operand();
      if (operand) {
        cmd.args.push(operand);
        cmd.end = operand.end;
      }
      const t = this.next();
      if (t.typ === T.Space) continue;
      if (t.typ === T.RightDelim || t.typ === T.RightParen) this.backup();
      else if (t.typ !== T.Pipe) this.unexpected(t, 'operand');
      break;
    }
    if (cmd.args.length === 0) this.errorf('empty command');
    return cmd;
  }

  operand(): Node | null {
    let node = this.term();
    if (!node) return null;
    if (this.peek().typ === T.Field) {
      const chain: ChainNode = { kind: 'chain', pos: this.peek().pos, start: node.pos, end: 0, node, field: [] };
      while (this.peek().typ === T.Field) {
        const f = this.next();
        chain.field.push(f.val.slice(1));
        chain.end = f.pos + f.val.length;
      }
      switch (node.kind) {
        case 'field':
          node = { kind: 'field', pos: chain.pos, start: node.pos, end: chain.end, ident: [...node.ident, ...chain.field] };
          break;
        case 'variable':
          node = { kind: 'variable', pos: chain.pos, start: node.pos, end: chain.end, ident: [...node.ident, ...chain.field] };
          break;
        case 'bool':
        case 'string':
        case 'number':
        case 'nil':
        case 'dot':
          this.errorf(`unexpected . after term ${goQuote(str(node))}`, node);
        // falls through: errorf never returns
        default:
          chain.end = Math.max(chain.end, node.end);
          node = chain;
      }
    }
    return node;
  }

  term(): Node | null {
    const tok = this.nextNonSpace();
    const end = tok.pos + tok.val.length;
    switch (tok.typ) {
      case T.Identifier:
        if (!this.hasFunction(tok.val))
          this.errorf(`function ${goQuote(tok.val)} not defined`, tok, { kind: 'undefined-function', name: tok.val });
        return { kind: 'identifier', pos: tok.pos, end, ident: tok.val };
      case T.Dot:
        return { kind: 'dot', pos: tok.pos, end };
      case T.Nil:
        return { kind: 'nil', pos: tok.pos, end };
      case T.Variable:
        return this.useVar(tok);
      case T.Field:
        return { kind: 'field', pos: tok.pos, end, ident: tok.val.slice(1).split('.') };
      case T.Bool:
        return { kind: 'bool', pos: tok.pos, end, val: tok.val === 'true' };
      case T.CharConstant:
      case T.Complex:
      case T.Number: {
        const n = newNumber(tok);
        if (typeof n === 'string') this.errorf(n, tok);
        return n;
      }
      case T.LeftParen: {
        if (this.stackDepth >= MAX_PAREN_DEPTH) this.errorf('max expression depth exceeded', tok);
        this.stackDepth++;
        try {
          const p = this.pipeline('parenthesized pipeline', T.RightParen);
          p.end = this.token[0].pos + 1;
          return p;
        } finally {
          this.stackDepth--;
        }
      }
      case T.String:
      case T.RawString:
        return { kind: 'string', pos: tok.pos, end, quoted: tok.val, text: this.unquote(tok) };
    }
    this.backup();
    return null;
  }

  variable(pos: number, ident: string): VariableNode {
    return { kind: 'variable', pos, end: pos + ident.length, ident: ident.split('.') };
  }

  useVar(tok: Item): VariableNode {
    const v = this.variable(tok.pos, tok.val);
    if (!this.vars.includes(v.ident[0])) this.errorf(`undefined variable ${goQuote(v.ident[0])}`, tok);
    return v;
  }
}

export function isEmptyTree(n: Node | null): boolean {
  if (!n) return true;
  switch (n.kind) {
    case 'list':
      return n.nodes.every(isEmptyTree);
    case 'text':
      return n.text.trim() === '';
    default:
      return false;
  }
}

/** Parses `text` as template `name`; returns every tree it defines. Throws GoParseError. */
export function parseTemplate(
  text: string,
  name: string,
  hasFunction: (name: string) => boolean,
  goMinor = GO_MINOR_DEFAULT,
): Map<string, Tree> {
  const treeSet = new Map<string, Tree>();
  const p = new Parser(text, name, hasFunction, treeSet, undefined, goMinor);
  p.parse();
  return treeSet;
}

// ---- literals ---------------------------------------------------------------------------------

const SIMPLE_ESCAPES: Record<string, number> = { a: 7, b: 8, f: 12, n: 10, r: 13, t: 9, v: 11, '\\': 0x5c };

/**
 * strconv.UnquoteChar: decodes one (possibly escaped) character of `s` at `i`.
 * Returns [bytes or code point, next index] or undefined on a syntax error.
 */
function unquoteChar(s: string, i: number, quote: string): [{ rune?: number; byte?: number }, number] | undefined {
  const c = s[i];
  if (c === quote && (quote === "'" || quote === '"')) return undefined;
  if (c !== '\\') {
    const r = s.codePointAt(i)!;
    return [{ rune: r }, i + (r > 0xffff ? 2 : 1)];
  }
  const e = s[i + 1];
  if (e === undefined) return undefined;
  if (e in SIMPLE_ESCAPES) return [{ rune: SIMPLE_ESCAPES[e] }, i + 2];
  switch (e) {
    case 'x':
    case 'u':
    case 'U': {
      const n = e === 'x' ? 2 : e === 'u' ? 4 : 8;
      const hex = s.slice(i + 2, i + 2 + n);
      if (hex.length !== n || !/^[0-9a-fA-F]+$/.test(hex)) return undefined;
      const v = parseInt(hex, 16);
      if (e === 'x') return [{ byte: v }, i + 2 + n];
      if (v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff)) return undefined;
      return [{ rune: v }, i + 2 + n];
    }
    case '0':
    case '1':
    case '2':
    case '3':
    case '4':
    case '5':
    case '6':
    case '7': {
      const oct = s.slice(i + 1, i + 4);
      if (!/^[0-7]{3}$/.test(oct)) return undefined;
      const v = parseInt(oct, 8);
      if (v > 255) return undefined;
      return [{ byte: v }, i + 4];
    }
    case "'":
    case '"':
      if (e !== quote) return undefined;
      return [{ rune: e.charCodeAt(0) }, i + 2];
  }
  return undefined;
}

/** strconv.Unquote for "…", `…` and '…'; undefined on invalid syntax. */
export function unquoteGo(q: string): string | undefined {
  if (q.length < 2) return undefined;
  const quote = q[0];
  if (quote !== q[q.length - 1]) return undefined;
  const body = q.slice(1, -1);
  if (quote === '`') {
    if (body.includes('`')) return undefined;
    return body.replace(/\r/g, '');
  }
  if (quote !== '"' && quote !== "'") return undefined;
  if (body.includes('\n')) return undefined;
  const bytes: number[] = [];
  let i = 0;
  let count = 0;
  while (i < body.length) {
    const r = unquoteChar(body, i, quote);
    if (!r) return undefined;
    const [v, next] = r;
    if (v.byte !== undefined) bytes.push(v.byte);
    else for (const b of Buffer.from(String.fromCodePoint(v.rune!), 'utf8')) bytes.push(b);
    i = next;
    count++;
  }
  if (quote === "'" && count !== 1) return undefined;
  return goString(Buffer.from(bytes));
}

function stripUnderscores(s: string): string | undefined {
  // Go allows '_' only between digits or right after a base prefix.
  if (!s.includes('_')) return s;
  if (!/^[+-]?(0[xXbBoO]_?)?[0-9a-fA-F.]+([_.][0-9a-fA-F]+)*([eEpP][+-]?[0-9]+(_[0-9]+)*)?$/.test(s)) return undefined;
  return s.replace(/_/g, '');
}

/** strconv.ParseInt/ParseUint with base 0. */
function parseGoInteger(text: string): bigint | undefined {
  const clean = stripUnderscores(text);
  if (clean === undefined) return undefined;
  const m = /^([+-]?)(0[xX][0-9a-fA-F]+|0[bB][01]+|0[oO][0-7]+|0[0-7]*|[1-9][0-9]*)$/.exec(clean);
  if (!m) return undefined;
  const body = m[2];
  let v: bigint;
  if (/^0[oO]/.test(body)) v = BigInt('0o' + body.slice(2));
  else if (/^0[0-7]+$/.test(body)) v = BigInt('0o' + body.slice(1));
  else v = BigInt(body);
  return m[1] === '-' ? -v : v;
}

function parseGoFloat(text: string): number | undefined {
  const t = text;
  if (/^[+-]?0[xX]/.test(t)) {
    const clean = stripUnderscores(t);
    if (clean === undefined) return undefined;
    const m = /^([+-]?)0[xX]([0-9a-fA-F]*)(?:\.([0-9a-fA-F]*))?[pP]([+-]?[0-9]+)$/.exec(clean);
    if (!m || (m[2] === '' && (m[3] ?? '') === '')) return undefined;
    const mant = parseInt((m[2] || '0') + (m[3] ?? ''), 16);
    const v = mant * Math.pow(2, Number(m[4]) - 4 * (m[3] ?? '').length);
    return m[1] === '-' ? -v : v;
  }
  const clean = stripUnderscores(t);
  if (clean === undefined || !/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(clean)) return undefined;
  return Number(clean);
}

const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;
const UINT64_MAX = (1n << 64n) - 1n;

/** parse.newNumber: classifies a numeric literal; returns an error text on failure. */
function newNumber(tok: Item): NumberNode | string {
  const text = tok.val;
  const n: NumberNode = {
    kind: 'number',
    pos: tok.pos,
    end: tok.pos + text.length,
    text,
    isInt: false,
    isUint: false,
    isFloat: false,
    isComplex: false,
    int64: 0n,
    uint64: 0n,
    float64: 0,
  };
  if (tok.typ === T.CharConstant) {
    const r = unquoteCharConstant(text);
    if (typeof r === 'string') return r;
    n.int64 = BigInt(r);
    n.uint64 = BigInt(r);
    n.float64 = r;
    n.isInt = n.isUint = n.isFloat = true;
    return n;
  }
  if (tok.typ === T.Complex) {
    const m = /^([+-]?[^+-]+(?:[eE][+-]?\d+)?)([+-].*)i$/.exec(text);
    const re = m ? parseGoFloat(m[1]) : undefined;
    const im = m ? parseGoFloat(m[2]) : undefined;
    if (re === undefined || im === undefined) return `expected integer`;
    n.isComplex = true;
    n.complex = [re, im];
    simplifyComplex(n);
    return n;
  }
  if (text.endsWith('i')) {
    const f =
      parseGoFloat(text.slice(0, -1)) ??
      (parseGoInteger(text.slice(0, -1)) !== undefined ? Number(parseGoInteger(text.slice(0, -1))) : undefined);
    if (f !== undefined) {
      n.isComplex = true;
      n.complex = [0, f];
      simplifyComplex(n);
      return n;
    }
  }
  const iv = parseGoInteger(text);
  let u: bigint | undefined;
  if (iv !== undefined && !/^[+-]/.test(text) && iv <= UINT64_MAX) {
    n.isUint = true;
    n.uint64 = u = iv;
  }
  if (iv !== undefined && iv >= INT64_MIN && iv <= INT64_MAX) {
    n.isInt = true;
    n.int64 = iv;
    if (iv === 0n) {
      n.isUint = true;
      n.uint64 = u ?? 0n;
    }
  }
  if (n.isInt) {
    n.isFloat = true;
    n.float64 = Number(n.int64);
  } else if (n.isUint) {
    n.isFloat = true;
    n.float64 = Number(n.uint64);
  } else {
    const f = parseGoFloat(text) ?? (iv !== undefined ? Number(iv) : undefined);
    if (f !== undefined && Number.isFinite(f)) {
      if (!/[.eEpP]/.test(text)) return `integer overflow: ${goQuote(text)}`;
      n.isFloat = true;
      n.float64 = f;
      if (!n.isInt && Number.isInteger(f) && f >= -9223372036854775808 && f < 9223372036854775808) {
        n.isInt = true;
        n.int64 = BigInt(f);
      }
      if (!n.isUint && Number.isInteger(f) && f >= 0 && f < 18446744073709551616) {
        n.isUint = true;
        n.uint64 = BigInt(f);
      }
    }
  }
  if (!n.isInt && !n.isUint && !n.isFloat) return `illegal number syntax: ${goQuote(text)}`;
  return n;
}

function simplifyComplex(n: NumberNode): void {
  const [re, im] = n.complex!;
  n.isFloat = im === 0;
  if (n.isFloat) {
    n.float64 = re;
    n.isInt = Number.isInteger(re) && Math.abs(re) < 9223372036854775808;
    if (n.isInt) n.int64 = BigInt(re);
    n.isUint = Number.isInteger(re) && re >= 0 && re < 18446744073709551616;
    if (n.isUint) n.uint64 = BigInt(re);
  }
}

function unquoteCharConstant(text: string): number | string {
  const r = unquoteChar(text, 1, "'");
  if (!r) return 'invalid syntax';
  const [v, next] = r;
  if (text.slice(next) !== "'") return `malformed character constant: ${text}`;
  return v.byte !== undefined ? v.byte : v.rune!;
}

export { formatRuneU };
