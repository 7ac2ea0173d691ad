/**
 * Argo CD's own template functions (`applicationset/utils/template_functions.go`, `utils.go`):
 * normalize, slugify, toYaml, fromYaml, fromYamlArray, tpl (bound per execution in tpl.ts). YAML goes through JSON like
 * sigs.k8s.io/yaml (sorted keys, JSON types) and parses as YAML 1.1 like go-yaml v2.
 */
import * as YAML from 'yaml';
import { type FuncMap, goFunc as F } from './funcs';
import { fromJSON, goString, goTypeName, utf8Bytes, type GoValue } from './values';
import { toGoJSON } from './sprig/encoding';
import { parseTime } from './sprig/goTime';
import { goLower } from './sprig/strings';
import { formatFloat } from './floatfmt';
import { checkYamlLimits } from './yamlGuard';
import { emitGoYaml, goYamlResolvesNonString, YamlFloat, type YamlValue } from './yamlEmit';

/** SanitizeName: lowercase, runes outside [-a-z0-9.] → '-', cut to 253 bytes, trim '-' and '.'. */
export function normalize(s: string): string {
  let out = '';
  for (const ch of goLower(s)) out += /[-a-z0-9.]/.test(ch) ? ch : '-';
  const bytes = utf8Bytes(out);
  if (bytes.length > 253) out = goString(bytes.subarray(0, 253));
  return out.replace(/^[-.]+|[-.]+$/g, '');
}

/** gosimple/slug Make after normalize (input is already [-a-z0-9.]), with MaxLength and smart truncation. */
export function slugify(name: string, maxLen = 50, smart = true): string {
  let s = normalize(name).trim();
  if (!smart && maxLen >= 0 && s.length >= maxLen) s = s.slice(0, maxLen);
  if (!smart && maxLen < 0) throw new Error(`runtime error: slice bounds out of range [:${maxLen}]`);
  s = s
    .replace(/[^a-zA-Z0-9_-]/g, '-')
    .replace(/-+/g, '-')
    .replace(/^[-_]+|[-_]+$/g, '');
  if (smart && maxLen > 0 && s.length > maxLen) {
    const cut = s.lastIndexOf('-', maxLen);
    s = cut > 0 ? s.slice(0, cut) : s.slice(0, maxLen);
  }
  return s;
}

/**
 * sigs.k8s.io/yaml's JSON → go-yaml step for one JSON number text: an integer that fits int64 or
 * uint64 stays an exact integer, anything else becomes a float64.
 */
function yamlNumber(text: string): bigint | YamlFloat {
  if (/^-?\d+$/.test(text)) {
    const n = BigInt(text);
    if (n >= -9223372036854775808n && n <= 18446744073709551615n) return n;
  }
  return new YamlFloat(Number(text));
}

const STRING = /"(?:[^"\\]|\\.)*"/y;
const WORD = /true|false|null|-?[0-9][0-9.eE+-]*/y;

/** JSON.parse for our own JSON text, keeping each number's text exact (through yamlNumber). */
function parseJSONForYaml(text: string): unknown {
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i])) i++;
  };
  const value = (): unknown => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      const o: Record<string, unknown> = {};
      ws();
      if (text[i] === '}') {
        i++;
        return o;
      }
      for (;;) {
        ws();
        const k = value() as string;
        ws();
        i++; // ':'
        Object.defineProperty(o, k, { value: value(), enumerable: true, writable: true, configurable: true });
        ws();
        if (text[i++] === '}') return o;
      }
    }
    if (c === '[') {
      i++;
      const a: unknown[] = [];
      ws();
      if (text[i] === ']') {
        i++;
        return a;
      }
      for (;;) {
        a.push(value());
        ws();
        if (text[i++] === ']') return a;
      }
    }
    if (c === '"') {
      STRING.lastIndex = i;
      const m = STRING.exec(text)!;
      i += m[0].length;
      // go-yaml reads a raw NEL (a YAML 1.1 line break that encoding/json does not escape) inside
      // this double-quoted scalar as a folded line: one break becomes a space, n breaks n-1 newlines.
      return (JSON.parse(m[0]) as string).replace(/[ \t]*(\u0085(?:[ \t]*\u0085)*)[ \t]*/g, (_all, breaks: string) => {
        const n = (breaks.match(/\u0085/g) ?? []).length;
        return n === 1 ? ' ' : '\n'.repeat(n - 1);
      });
    }
    WORD.lastIndex = i;
    const m = WORD.exec(text)!;
    i += m[0].length;
    return m[0] === 'true' ? true : m[0] === 'false' ? false : m[0] === 'null' ? null : yamlNumber(m[0]);
  };
  return value();
}

// The same values are usually rendered for many Applications on every keystroke.
const yamlCache = new Map<string, string>();

export function toYamlText(v: GoValue): string {
  const text = toGoJSON(v, false);
  const hit = yamlCache.get(text);
  if (hit !== undefined) return hit;
  const out = jsonTextToYaml(text);
  if (text.length < 200_000) {
    if (yamlCache.size >= 500) yamlCache.delete(yamlCache.keys().next().value as string);
    yamlCache.set(text, out);
  }
  return out;
}

function jsonTextToYaml(text: string): string {
  // sigs.k8s.io/yaml reads that JSON back with go-yaml, whose reader refuses these characters
  // (encoding/json writes them raw).
  if (/[\u007f-\u0084\u0086-\u009f\ufffe\uffff]/.test(text))
    throw new Error('error converting JSON to YAML: yaml: control characters are not allowed');
  const json = parseJSONForYaml(text) as YamlValue;
  return emitGoYaml(json, {
    resolvesAsNonString: (s) => goYamlResolvesNonString(s, isGoYamlTimestamp),
    formatFloat: (f) => formatFloat(f, 'g', -1),
  }).replace(/\n$/, '');
}

/** go-yaml v2's parseTimestamp: YYYY- then one of its four time.Parse layouts. */
function isGoYamlTimestamp(s: string): boolean {
  if (!/^\d{4}-/.test(s)) return false;
  for (const layout of ['2006-1-2T15:4:5.999999999Z07:00', '2006-1-2t15:4:5.999999999Z07:00', '2006-1-2 15:4:5.999999999', '2006-1-2']) {
    try {
      parseTime(layout, s);
      return true;
    } catch {
      // try the next layout
    }
  }
  return false;
}

function goTypeOfJSON(v: unknown): string {
  return Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v === 'object' ? 'object' : typeof v === 'number' ? 'number' : typeof v;
}

function parseYaml11(s: string): unknown {
  // Text the parser could not safely recurse through never reaches it (yamlGuard.ts). go-yaml v2's
  // own limit is 10000 levels ("exceeded max depth of 10000"); ours is lower and says so.
  const hit = checkYamlLimits(s);
  if (hit) {
    const what =
      hit.kind === 'depth'
        ? `nested more than ${hit.limit} levels deep`
        : hit.kind === 'line'
          ? `a line longer than ${hit.limit} characters`
          : `more than ${hit.limit} characters`;
    throw new Error(`error converting YAML to JSON: yaml: ${what} (ApplicationSet Tools' limit)`);
  }
  // go-yaml's Unmarshal reads the first document of a stream and ignores the rest.
  // Without the library's pretty errors, which copy a whole line per error (minutes for a long printed value).
  // Source tokens are kept so that an unclosed flow collection can be told from its own tokens (unclosedFlow).
  const docs = YAML.parseAllDocuments(s, {
    version: '1.1',
    uniqueKeys: false,
    logLevel: 'error',
    prettyErrors: false,
    keepSourceTokens: true,
  });
  const doc = Array.isArray(docs) ? docs[0] : docs;
  if (!doc) return null;
  if (doc.errors.length) {
    const e = doc.errors[0];
    let line = 1;
    for (let i = s.indexOf('\n'); i >= 0 && i < e.pos[0]; i = s.indexOf('\n', i + 1)) line++;
    const close = unclosedFlow(doc, e);
    // The library's own words otherwise (its pretty errors are off: one line, no position appended).
    const what = close ? `did not find expected ',' or '${close}'` : e.message;
    throw new Error(`error converting YAML to JSON: yaml: line ${line}: ${what}`);
  }
  YAML.visit(doc, {
    // Aliases as go-yaml reports them: to an anchor not defined before, or inside their own anchor.
    Alias(_, node, path) {
      const target = node.resolve(doc);
      if (!target) throw new Error(`error converting YAML to JSON: yaml: unknown anchor '${node.source}' referenced`);
      if ((path as readonly unknown[]).includes(target))
        throw new Error(`error converting YAML to JSON: yaml: anchor '${node.source}' value contains itself`);
    },
    // go-yaml keeps a float literal that overflows float64 (1e400) as a string; only .inf is infinite.
    // A timestamp (`2001-12-14`) decoded into interface{} is the text as written, not a time
    // (go-yaml v2 decode.go; sigs.k8s.io/yaml then goes through JSON).
    Scalar(_, node) {
      const src = (node as { source?: string }).source;
      if (node.value instanceof Date) {
        node.value = typeof src === 'string' ? src : node.value.toISOString();
        return;
      }
      if (
        typeof node.value === 'number' &&
        !Number.isFinite(node.value) &&
        typeof src === 'string' &&
        !/^[-+]?\.(?:inf|Inf|INF)$|^\.(?:nan|NaN|NAN)$/.test(src)
      )
        node.value = src;
    },
  });
  const value = doc.toJS({ maxAliasCount: 100, mapAsMap: false }) as unknown;
  // sigs.k8s.io/yaml goes through encoding/json, which has no ±Inf or NaN.
  const bad = nonFinite(value);
  if (bad) throw new Error(`error converting YAML to JSON: json: unsupported value: ${bad}`);
  return value;
}

/**
 * The closing bracket go-yaml says it did not find when `e` is the library's error for a flow
 * collection that is never closed (go-yaml v2 parserc.go, parsing a flow sequence or mapping entry:
 * "did not find expected ',' or ']'"). Decided by structure, not wording: the library reports an
 * unclosed collection at the end of its last item — where the collection's node range stops
 * (`range[1]`) — with MISSING_CHAR at the document's root and BAD_INDENT below it, innermost
 * collection first; its source token has no closing bracket. An error of the last item reported at
 * that same place comes before the collection's: an unclosed quote (compose/resolve-flow-scalar: the
 * token's last character is not its opening quote) and the items' own errors (itemError) are told
 * by their tokens.
 */
function unclosedFlow(doc: YAML.Document.Parsed, e: YAML.YAMLError): ']' | '}' | undefined {
  if (e.code !== 'MISSING_CHAR' && e.code !== 'BAD_INDENT') return undefined;
  const at = e.pos[0];
  let innermost: { start: number; close: ']' | '}'; code: 'MISSING_CHAR' | 'BAD_INDENT'; itemError: boolean } | undefined;
  let quoteOpen = false;
  YAML.visit(doc, {
    Collection(_, node) {
      const token = node.srcToken;
      if (!node.flow || node.range?.[1] !== at || token?.type !== 'flow-collection') return;
      const close = token.start.source === '{' ? '}' : ']';
      if (token.end[0]?.source !== close && (!innermost || token.offset > innermost.start))
        innermost = {
          start: token.offset,
          close,
          code: node === doc.contents ? 'MISSING_CHAR' : 'BAD_INDENT',
          itemError: itemError(token),
        };
    },
    Scalar(_, node) {
      const token = node.srcToken;
      if (token?.type !== 'single-quoted-scalar' && token?.type !== 'double-quoted-scalar') return;
      const src = token.source;
      if (token.offset + src.length === at && (src.length === 1 || src[src.length - 1] !== src[0])) quoteOpen = true;
    },
  });
  if (!innermost || quoteOpen || innermost.code !== e.code || innermost.itemError) return undefined;
  // An error inside the collection (after its bracket, before the place) is an item's, reported before its end.
  const start = innermost.start;
  return doc.errors.some((x) => x.pos[0] > start && x.pos[0] < at) ? undefined : innermost.close;
}

/**
 * Items the library reports an error for while composing them, so before the collection's end: an
 * item after the first with something in it but no comma token before it ("Missing , between"), and
 * a block collection inside (BLOCK_IN_FLOW, reported after composing it), both in
 * compose/resolve-flow-collection.
 */
function itemError(token: YAML.CST.FlowCollection): boolean {
  const block = (t: YAML.CST.Token | null | undefined) => t?.type === 'block-map' || t?.type === 'block-seq';
  return token.items.some(
    (item, i) =>
      block(item.key) ||
      block(item.value) ||
      (i > 0 &&
        !item.start.some((t) => t.type === 'comma') &&
        !!(
          item.key ||
          item.sep ||
          item.value ||
          item.start.some((t) => t.type === 'explicit-key-ind' || t.type === 'anchor' || t.type === 'tag')
        )),
  );
}

function nonFinite(v: unknown): string | undefined {
  if (typeof v === 'number') return Number.isNaN(v) ? 'NaN' : v === Infinity ? '+Inf' : v === -Infinity ? '-Inf' : undefined;
  if (Array.isArray(v)) {
    for (const x of v) {
      const r = nonFinite(x);
      if (r) return r;
    }
  } else if (v && typeof v === 'object') {
    for (const k of Object.keys(v).sort()) {
      const r = nonFinite((v as Record<string, unknown>)[k]);
      if (r) return r;
    }
  }
  return undefined;
}

export function argoFuncs(): FuncMap {
  const m: FuncMap = new Map();
  m.set(
    'normalize',
    F((s: string) => normalize(s), ['string']),
  );
  m.set(
    'slugify',
    F(
      (...args: GoValue[]) => {
        // Argo CD asserts each argument's type in argument order: [maxSize int, [smart bool,]] url string.
        const assert = (v: GoValue, want: string, ok: boolean) => {
          if (!ok) throw new Error(`interface conversion: interface {} is ${v === null ? 'nil' : goTypeName(v)}, not ${want}`);
        };
        let name = '';
        let maxLen = 50;
        let smart = true;
        args.forEach((a, i) => {
          if (i === args.length - 1) {
            assert(a, 'string', typeof a === 'string');
            name = a as string;
          } else if (i === 0) {
            assert(a, 'int', typeof a === 'bigint');
            maxLen = Number(a);
          } else if (i === 1) {
            assert(a, 'bool', typeof a === 'boolean');
            smart = a as boolean;
          }
        });
        if (!args.length) return '';
        return slugify(name, maxLen, smart);
      },
      [],
      'any',
    ),
  );
  m.set(
    'toYaml',
    F((v: GoValue) => toYamlText(v), ['any']),
  );
  m.set(
    'fromYaml',
    F(
      (s: string) => {
        const v = parseYaml11(s);
        if (v !== null && (typeof v !== 'object' || Array.isArray(v)))
          throw new Error(
            `error unmarshaling JSON: while decoding JSON: json: cannot unmarshal ${goTypeOfJSON(v)} into Go value of type map[string]interface {}`,
          );
        return fromJSON(JSON.parse(JSON.stringify(v ?? {})));
      },
      ['string'],
    ),
  );
  m.set(
    'fromYamlArray',
    F(
      (s: string) => {
        const v = parseYaml11(s);
        if (v !== null && !Array.isArray(v))
          throw new Error(
            `error unmarshaling JSON: while decoding JSON: json: cannot unmarshal ${goTypeOfJSON(v)} into Go value of type []interface {}`,
          );
        return fromJSON(JSON.parse(JSON.stringify(v ?? [])));
      },
      ['string'],
    ),
  );
  // Argo CD 3.6's tpl renders with the calling template, so each execution binds its own (tpl.ts);
  // this entry declares it to the parser and never runs.
  m.set(
    'tpl',
    F(() => {
      throw new Error('tpl is bound to the calling template when it runs');
    }, ['string', 'any']),
  );
  return m;
}
