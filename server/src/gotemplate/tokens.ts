/**
 * The lexical tokens of a template string, for highlighting `{{ }}` actions inside YAML strings:
 * delimiters, fields, variables, functions, keywords, strings, numbers and comments. goTemplate mode
 * uses Go's lexer (so highlighting agrees with what parses); fasttemplate mode has only tags.
 */
import { Lexer, T } from './lexer';
import { parseFast } from './fasttemplate';

export type TokenKind = 'delimiter' | 'field' | 'variable' | 'function' | 'keyword' | 'string' | 'number' | 'comment' | 'operator';

export interface TemplateToken {
  kind: TokenKind;
  offset: number;
  length: number;
}

const MAX_TOKENS = 20000;

export function templateTokens(template: string, goTemplate: boolean): TemplateToken[] {
  const out: TemplateToken[] = [];
  if (!goTemplate) {
    const p = parseFast(template);
    if (!p || 'error' in p) return out;
    for (const tag of p.tags) {
      out.push({ kind: 'delimiter', offset: tag.offset - 2, length: 2 });
      if (tag.raw.trim())
        out.push({ kind: 'variable', offset: tag.offset + (tag.raw.length - tag.raw.trimStart().length), length: tag.raw.trim().length });
      out.push({ kind: 'delimiter', offset: tag.offset + tag.raw.length, length: 2 });
    }
    return out;
  }
  const lex = new Lexer(template, true, true);
  for (let i = 0; i < MAX_TOKENS; i++) {
    const it = lex.nextItem();
    if (it.typ === T.EOF || it.typ === T.Error) break;
    const kind = kindOf(it.typ);
    if (kind) out.push({ kind, offset: it.pos, length: it.val.length });
  }
  return out;
}

function kindOf(t: T): TokenKind | undefined {
  switch (t) {
    case T.LeftDelim:
    case T.RightDelim:
      return 'delimiter';
    case T.Field:
      return 'field';
    case T.Variable:
      return 'variable';
    case T.Identifier:
      return 'function';
    case T.String:
    case T.RawString:
    case T.CharConstant:
      return 'string';
    case T.Number:
    case T.Bool:
    case T.Nil:
      return 'number';
    case T.Comment:
      return 'comment';
    case T.Pipe:
    case T.Assign:
    case T.Declare:
      return 'operator';
    case T.Dot:
      return 'field';
    default:
      return t > T.Keyword ? 'keyword' : undefined;
  }
}
