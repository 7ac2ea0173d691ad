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

/** The highlighting kind of each lexer item type but the keywords (every type after T.Keyword). */
const KINDS = new Map<T, TokenKind>(
  (
    [
      ['delimiter', [T.LeftDelim, T.RightDelim]],
      ['field', [T.Field, T.Dot]],
      ['variable', [T.Variable]],
      ['function', [T.Identifier]],
      ['string', [T.String, T.RawString, T.CharConstant]],
      ['number', [T.Number, T.Bool, T.Nil]],
      ['comment', [T.Comment]],
      ['operator', [T.Pipe, T.Assign, T.Declare]],
    ] as const
  ).flatMap(([kind, types]) => types.map((t): [T, TokenKind] => [t, kind])),
);

function kindOf(t: T): TokenKind | undefined {
  return KINDS.get(t) ?? (t > T.Keyword ? 'keyword' : undefined);
}
