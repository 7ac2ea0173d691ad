/**
 * Lexer for Go text/template (mirrors the state machine of Go 1.26's text/template/parse/lex.go,
 * the toolchain Argo CD builds with). Positions are UTF-16 offsets into the JS string; the parser
 * converts them to Go's byte columns only when it formats an error.
 */
import { goQuote } from './format';

export const enum T {
  Error,
  Bool,
  Char,
  CharConstant,
  Comment,
  Complex,
  Assign,
  Declare,
  EOF,
  Field,
  Identifier,
  LeftDelim,
  LeftParen,
  Number,
  Pipe,
  RawString,
  RightDelim,
  RightParen,
  Space,
  String,
  Text,
  Variable,
  Keyword, // keywords follow
  Block,
  Break,
  Continue,
  Dot,
  Define,
  Else,
  End,
  If,
  Nil,
  Range,
  Template,
  With,
}

export interface Item {
  typ: T;
  pos: number;
  val: string;
  line: number;
}

const KEYWORDS = new Map<string, T>([
  ['.', T.Dot],
  ['block', T.Block],
  ['break', T.Break],
  ['continue', T.Continue],
  ['define', T.Define],
  ['else', T.Else],
  ['end', T.End],
  ['if', T.If],
  ['range', T.Range],
  ['nil', T.Nil],
  ['template', T.Template],
  ['with', T.With],
]);

/**
 * A word Go's template language reserves (a keyword, or one of its constants `true`/`false`/`nil`):
 * never a function or a parameter name in an action.
 */
export function isTemplateKeyword(word: string): boolean {
  return (word !== '.' && KEYWORDS.has(word)) || word === 'true' || word === 'false';
}

const LEFT = '{{';
const RIGHT = '}}';
const EOF = -1;

export function isSpace(r: number): boolean {
  return r === 0x20 || r === 0x09 || r === 0x0d || r === 0x0a;
}

const LETTER_OR_DIGIT = /[\p{L}\p{Nd}]/u;
export function isAlphaNumeric(r: number): boolean {
  if (r < 0) return false;
  if (r < 0x80) return r === 0x5f || (r >= 0x30 && r <= 0x39) || (r >= 0x41 && r <= 0x5a) || (r >= 0x61 && r <= 0x7a);
  return LETTER_OR_DIGIT.test(String.fromCodePoint(r));
}

function countNL(s: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) if (s.charCodeAt(i) === 10) n++;
  return n;
}

function trimRightLen(s: string, from: number, to: number): number {
  let i = to;
  while (i > from && isSpace(s.charCodeAt(i - 1))) i--;
  return to - i;
}

function trimLeftLen(s: string, from: number): number {
  let i = from;
  while (i < s.length && isSpace(s.charCodeAt(i))) i++;
  return i - from;
}

function hasLeftTrimMarker(s: string, at: number): boolean {
  return at + 1 < s.length && s.charCodeAt(at) === 0x2d && isSpace(s.charCodeAt(at + 1));
}

function hasRightTrimMarker(s: string, at: number): boolean {
  return at + 1 < s.length && isSpace(s.charCodeAt(at)) && s.charCodeAt(at + 1) === 0x2d;
}

/** `%#U` of Go's fmt: `U+0029 ')'`. */
export function formatRuneU(r: number): string {
  const hex = r.toString(16).toUpperCase().padStart(4, '0');
  return `U+${hex} '${String.fromCodePoint(r)}'`;
}

type StateFn = ((l: Lexer) => StateFn) | null;

export class Lexer {
  pos = 0;
  start = 0;
  atEOF = false;
  parenDepth = 0;
  line = 1;
  startLine = 1;
  insideAction = false;
  item: Item = { typ: T.EOF, pos: 0, val: '', line: 1 };
  input: string;

  constructor(
    input: string,
    readonly breakOK: boolean,
    readonly continueOK: boolean,
  ) {
    this.input = input;
  }

  next(): number {
    if (this.pos >= this.input.length) {
      this.atEOF = true;
      return EOF;
    }
    const r = this.input.codePointAt(this.pos)!;
    this.pos += r > 0xffff ? 2 : 1;
    if (r === 10) this.line++;
    return r;
  }

  peek(): number {
    const r = this.next();
    this.backup();
    return r;
  }

  backup(): void {
    if (!this.atEOF && this.pos > 0) {
      const c = this.input.charCodeAt(this.pos - 1);
      const w =
        c >= 0xdc00 &&
        c <= 0xdfff &&
        this.pos > 1 &&
        this.input.charCodeAt(this.pos - 2) >= 0xd800 &&
        this.input.charCodeAt(this.pos - 2) <= 0xdbff
          ? 2
          : 1;
      this.pos -= w;
      if (c === 10) this.line--;
    }
  }

  thisItem(t: T): Item {
    const i = { typ: t, pos: this.start, val: this.input.slice(this.start, this.pos), line: this.startLine };
    this.start = this.pos;
    this.startLine = this.line;
    return i;
  }

  emit(t: T): StateFn {
    return this.emitItem(this.thisItem(t));
  }

  emitItem(i: Item): StateFn {
    this.item = i;
    return null;
  }

  ignore(): void {
    this.line += countNL(this.input, this.start, this.pos);
    this.start = this.pos;
    this.startLine = this.line;
  }

  accept(valid: string): boolean {
    const r = this.next();
    if (r >= 0 && valid.includes(String.fromCodePoint(r))) return true;
    this.backup();
    return false;
  }

  acceptRun(valid: string): void {
    for (;;) {
      const r = this.next();
      if (!(r >= 0 && valid.includes(String.fromCodePoint(r)))) break;
    }
    this.backup();
  }

  errorf(msg: string): StateFn {
    this.item = { typ: T.Error, pos: this.start, val: msg, line: this.startLine };
    this.start = 0;
    this.pos = 0;
    this.input = '';
    return null;
  }

  nextItem(): Item {
    this.item = { typ: T.EOF, pos: this.pos, val: 'EOF', line: this.startLine };
    let state: StateFn = this.insideAction ? lexInsideAction : lexText;
    for (;;) {
      state = state(this);
      if (state === null) return this.item;
    }
  }

  atRightDelim(): [boolean, boolean] {
    if (hasRightTrimMarker(this.input, this.pos) && this.input.startsWith(RIGHT, this.pos + 2)) return [true, true];
    if (this.input.startsWith(RIGHT, this.pos)) return [true, false];
    return [false, false];
  }

  atTerminator(): boolean {
    const r = this.peek();
    if (isSpace(r)) return true;
    switch (r) {
      case EOF:
      case 0x2e: // .
      case 0x2c: // ,
      case 0x7c: // |
      case 0x3a: // :
      case 0x29: // )
      case 0x28: // (
        return true;
    }
    return this.input.startsWith(RIGHT, this.pos);
  }
}

function lexText(l: Lexer): StateFn {
  const x = l.input.indexOf(LEFT, l.pos);
  if (x >= 0) {
    if (x > l.pos) {
      l.pos = x;
      let trimLength = 0;
      if (hasLeftTrimMarker(l.input, l.pos + LEFT.length)) trimLength = trimRightLen(l.input, l.start, l.pos);
      l.pos -= trimLength;
      l.line += countNL(l.input, l.start, l.pos);
      const i = l.thisItem(T.Text);
      l.pos += trimLength;
      l.ignore();
      if (i.val.length > 0) return l.emitItem(i);
    }
    return lexLeftDelim;
  }
  l.pos = l.input.length;
  if (l.pos > l.start) {
    l.line += countNL(l.input, l.start, l.pos);
    return l.emit(T.Text);
  }
  return l.emit(T.EOF);
}

function lexLeftDelim(l: Lexer): StateFn {
  l.pos += LEFT.length;
  const trimSpace = hasLeftTrimMarker(l.input, l.pos);
  const afterMarker = trimSpace ? 2 : 0;
  if (l.input.startsWith('/*', l.pos + afterMarker)) {
    l.pos += afterMarker;
    l.ignore();
    return lexComment;
  }
  const i = l.thisItem(T.LeftDelim);
  l.insideAction = true;
  l.pos += afterMarker;
  l.ignore();
  l.parenDepth = 0;
  return l.emitItem(i);
}

function lexComment(l: Lexer): StateFn {
  l.pos += 2;
  const x = l.input.indexOf('*/', l.pos);
  if (x < 0) return l.errorf('unclosed comment');
  l.pos = x + 2;
  const [delim, trimSpace] = l.atRightDelim();
  if (!delim) return l.errorf('comment ends before closing delimiter');
  l.line += countNL(l.input, l.start, l.pos);
  l.thisItem(T.Comment); // comments are not emitted (Argo CD does not parse with ParseComments)
  if (trimSpace) l.pos += 2;
  l.pos += RIGHT.length;
  if (trimSpace) l.pos += trimLeftLen(l.input, l.pos);
  l.ignore();
  return lexText;
}

function lexRightDelim(l: Lexer): StateFn {
  const [, trimSpace] = l.atRightDelim();
  if (trimSpace) {
    l.pos += 2;
    l.ignore();
  }
  l.pos += RIGHT.length;
  const i = l.thisItem(T.RightDelim);
  if (trimSpace) {
    l.pos += trimLeftLen(l.input, l.pos);
    l.ignore();
  }
  l.insideAction = false;
  return l.emitItem(i);
}

function lexInsideAction(l: Lexer): StateFn {
  const [delim] = l.atRightDelim();
  if (delim) {
    if (l.parenDepth === 0) return lexRightDelim;
    return l.errorf('unclosed left paren');
  }
  const r = l.next();
  if (r === EOF) return l.errorf('unclosed action');
  if (isSpace(r)) {
    l.backup();
    return lexSpace;
  }
  switch (r) {
    case 0x3d: // =
      return l.emit(T.Assign);
    case 0x3a: // :
      if (l.next() !== 0x3d) return l.errorf('expected :=');
      return l.emit(T.Declare);
    case 0x7c:
      return l.emit(T.Pipe);
    case 0x22:
      return lexQuote;
    case 0x60:
      return lexRawQuote;
    case 0x24:
      return lexVariable;
    case 0x27:
      return lexChar;
    case 0x28:
      l.parenDepth++;
      return l.emit(T.LeftParen);
    case 0x29:
      l.parenDepth--;
      if (l.parenDepth < 0) return l.errorf('unexpected right paren');
      return l.emit(T.RightParen);
  }
  if (r === 0x2e) {
    if (l.pos < l.input.length) {
      const c = l.input.charCodeAt(l.pos);
      if (c < 0x30 || c > 0x39) return lexField;
    }
    l.backup();
    return lexNumber;
  }
  if (r === 0x2b || r === 0x2d || (r >= 0x30 && r <= 0x39)) {
    l.backup();
    return lexNumber;
  }
  if (isAlphaNumeric(r)) {
    l.backup();
    return lexIdentifier;
  }
  if (r < 0x80 && r >= 0x20 && r < 0x7f) return l.emit(T.Char);
  return l.errorf(`unrecognized character in action: ${formatRuneU(r)}`);
}

function lexSpace(l: Lexer): StateFn {
  let numSpaces = 0;
  for (;;) {
    const r = l.peek();
    if (!isSpace(r)) break;
    l.next();
    numSpaces++;
  }
  if (hasRightTrimMarker(l.input, l.pos - 1) && l.input.startsWith(RIGHT, l.pos - 1 + 2)) {
    l.backup();
    if (numSpaces === 1) return lexRightDelim;
  }
  return l.emit(T.Space);
}

function lexIdentifier(l: Lexer): StateFn {
  for (;;) {
    const r = l.next();
    if (isAlphaNumeric(r)) continue;
    l.backup();
    const word = l.input.slice(l.start, l.pos);
    if (!l.atTerminator()) return l.errorf(`bad character ${formatRuneU(r)}`);
    const kw = KEYWORDS.get(word);
    if (kw !== undefined && kw > T.Keyword) {
      if ((kw === T.Break && !l.breakOK) || (kw === T.Continue && !l.continueOK)) return l.emit(T.Identifier);
      return l.emit(kw);
    }
    if (word[0] === '.') return l.emit(T.Field);
    if (word === 'true' || word === 'false') return l.emit(T.Bool);
    return l.emit(T.Identifier);
  }
}

function lexField(l: Lexer): StateFn {
  return lexFieldOrVariable(l, T.Field);
}

function lexVariable(l: Lexer): StateFn {
  if (l.atTerminator()) return l.emit(T.Variable);
  return lexFieldOrVariable(l, T.Variable);
}

function lexFieldOrVariable(l: Lexer, typ: T): StateFn {
  if (l.atTerminator()) return l.emit(typ === T.Variable ? T.Variable : T.Dot);
  let r: number;
  for (;;) {
    r = l.next();
    if (!isAlphaNumeric(r)) {
      l.backup();
      break;
    }
  }
  if (!l.atTerminator()) return l.errorf(`bad character ${formatRuneU(r)}`);
  return l.emit(typ);
}

function lexChar(l: Lexer): StateFn {
  for (;;) {
    let r = l.next();
    if (r === 0x5c) {
      r = l.next();
      if (r !== EOF && r !== 10) continue;
      return l.errorf('unterminated character constant');
    }
    if (r === EOF || r === 10) return l.errorf('unterminated character constant');
    if (r === 0x27) break;
  }
  return l.emit(T.CharConstant);
}

function lexNumber(l: Lexer): StateFn {
  if (!scanNumber(l)) return l.errorf(`bad number syntax: ${goQuote(l.input.slice(l.start, l.pos))}`);
  const sign = l.peek();
  if (sign === 0x2b || sign === 0x2d) {
    if (!scanNumber(l) || l.input[l.pos - 1] !== 'i') return l.errorf(`bad number syntax: ${goQuote(l.input.slice(l.start, l.pos))}`);
    return l.emit(T.Complex);
  }
  return l.emit(T.Number);
}

function scanNumber(l: Lexer): boolean {
  l.accept('+-');
  let digits = '0123456789_';
  if (l.accept('0')) {
    if (l.accept('xX')) digits = '0123456789abcdefABCDEF_';
    else if (l.accept('oO')) digits = '01234567_';
    else if (l.accept('bB')) digits = '01_';
  }
  l.acceptRun(digits);
  if (l.accept('.')) l.acceptRun(digits);
  if (digits.length === 11 && l.accept('eE')) {
    l.accept('+-');
    l.acceptRun('0123456789_');
  }
  if (digits.length === 23 && l.accept('pP')) {
    l.accept('+-');
    l.acceptRun('0123456789_');
  }
  l.accept('i');
  if (isAlphaNumeric(l.peek())) {
    l.next();
    return false;
  }
  return true;
}

function lexQuote(l: Lexer): StateFn {
  for (;;) {
    let r = l.next();
    if (r === 0x5c) {
      r = l.next();
      if (r !== EOF && r !== 10) continue;
      return l.errorf('unterminated quoted string');
    }
    if (r === EOF || r === 10) return l.errorf('unterminated quoted string');
    if (r === 0x22) break;
  }
  return l.emit(T.String);
}

function lexRawQuote(l: Lexer): StateFn {
  for (;;) {
    const r = l.next();
    if (r === EOF) return l.errorf('unterminated raw quoted string');
    if (r === 0x60) break;
  }
  return l.emit(T.RawString);
}
