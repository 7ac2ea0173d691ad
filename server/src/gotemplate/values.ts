/**
 * The Go value model used by the template engine.
 *
 * CONTRACT shared by the executor (exec.ts), the formatter (format.ts), the builtins and the Sprig
 * functions (sprig/*.ts). Mapping of Go types to JavaScript:
 *
 *   Go                         JavaScript
 *   string                     string          (Go strings are bytes: valid UTF-8 is held as text, each
 *                                               byte that is not valid UTF-8 as a lone surrogate
 *                                               U+DC80–U+DCFF; `utf8Bytes`/`goString` convert, and
 *                                               output turns those bytes into U+FFFD as Go's JSON does)
 *   float64                    number          (every number coming from JSON/YAML params)
 *   int                        bigint          (template integer literals, `len`, `atoi`, `int`, …)
 *   int64                      GoInt64         (sprig arithmetic: `add`, `sub`, `int64`, …)
 *   bool                       boolean
 *   nil (untyped / nil iface)  null
 *   []interface{}              GoValue[]       (also used for []string)
 *   map[string]interface{}     GoMap           (Map, so hostile keys like `__proto__` are plain keys)
 *   map[string]string          GoStringMap     (missing keys index to "" instead of <no value>)
 *   time.Time                  GoTime
 *   anything else              GoOther         (named Go type + payload, e.g. *semver.Version)
 *
 * `undefined` is never a GoValue: the executor uses it internally for Go's invalid reflect.Value
 * ("no value", printed `<no value>`).
 */

export class GoInt64 {
  constructor(readonly v: bigint) {}
}

export class GoMap extends Map<string, GoValue> {}

/** The nil map a `map[string]interface{}` parameter receives for `nil`: reads see it empty, writes panic. */
export class GoNilMap extends GoMap {
  override set(key: string, value: GoValue): this {
    void key;
    void value;
    throw new Error('assignment to entry in nil map');
  }
}

export class GoStringMap extends Map<string, string> {}

/** A Go time.Time: milliseconds since the epoch plus extra nanoseconds, and its zone. */
export class GoTime {
  constructor(
    readonly ms: number,
    readonly nsec: number = 0,
    /** The zone's abbreviation as Go prints it ('UTC' for Local, which is UTC in the controller; '' for an unnamed fixed zone). */
    readonly zone: string = 'UTC',
    /** Seconds east of UTC. */
    readonly offset: number = 0,
    /** The monotonic clock reading (seconds) a time from `now` carries; String() shows it as ` m=+…`. */
    readonly mono?: number,
  ) {}
}

/**
 * Go parameter types the executor knows how to check and convert:
 * - 'any'      interface{}: anything, including nil; a missing value (`<no value>`) arrives as null.
 * - 'string' | 'bool' | 'float64' | 'int' | 'int64': exact Go kinds (no implicit conversion, as in Go;
 *   untyped template constants convert: `3` fits int/int64/float64, `3.5` fits float64).
 * - 'list'     []interface{}   - 'strings' []string   - 'map' map[string]interface{}
 * - 'time'     time.Time
 * - '*semver.Version' | 'sprig.certificate': a GoOther of exactly that type
 */
export type GoParamType = 'any' | 'string' | 'bool' | 'float64' | 'int' | 'int64' | 'list' | 'strings' | 'map' | 'time' | GoOtherParamType;
export type GoOtherParamType = '*semver.Version' | 'sprig.certificate';

/**
 * A template function's Go signature and implementation (declared with `goFunc` of funcs.ts). It is
 * part of the value model because a GoOther's methods are GoFuncs (GoMember below).
 */
export interface GoFunc {
  params: GoParamType[];
  /** Type of the trailing variadic parameter (`...interface{}` → 'any'). */
  variadic?: GoParamType;
  /** Receives converted arguments; `this` is unbound. */
  impl: (...args: GoValue[]) => GoValue;
  /** Marks functions whose result differs from run to run (now, rand*, uuidv4, genCA, …). */
  nonDeterministic?: boolean;
}

/** A struct field or a method of a GoOther, as `.Name` reaches it in a template. */
export type GoMember = { field: GoValue } | { method: GoFunc };

/** What a GoOther offers beyond printing: members, its JSON form, its reflect kind. */
export interface GoOtherExt {
  /** Fields and methods by name (Go: exported fields of a struct, methods in the method set). */
  members?: Readonly<Record<string, GoMember>>;
  /** encoding/json text of the value (a MarshalJSON method, or a struct's fields). */
  json?: () => string;
  /** reflect.Kind name when it is not 'ptr' (e.g. 'struct' for a value type). */
  kind?: string;
  /** What `%#v` prints (Go syntax), when it is not the String form. */
  goSyntax?: () => string;
}

/** A value of some other Go type that only specific functions understand. */
export class GoOther {
  constructor(
    /** Go type name as `%T` prints it, e.g. `*semver.Version`. */
    readonly type: string,
    readonly payload: unknown,
    /** How `%v` prints it. */
    readonly print: () => string,
    readonly ext: GoOtherExt = {},
  ) {}

  member(name: string): GoMember | undefined {
    const m = this.ext.members;
    return m && Object.prototype.hasOwnProperty.call(m, name) ? m[name] : undefined;
  }
}

export type GoValue = string | number | bigint | GoInt64 | boolean | null | GoValue[] | GoMap | GoStringMap | GoTime | GoOther;

/** Parameters handed to a render: a JSON object, or an already converted GoMap. */
export type Params = GoMap | { [key: string]: unknown };

/** Converts a JSON-like JavaScript value into the Go value model (objects → GoMap, numbers → float64). */
export function fromJSON(v: unknown): GoValue {
  if (v === null || v === undefined) return null;
  switch (typeof v) {
    case 'string':
    case 'number':
    case 'boolean':
    case 'bigint':
      return v;
    case 'object':
      if (v instanceof GoMap || v instanceof GoStringMap || v instanceof GoInt64 || v instanceof GoTime || v instanceof GoOther) return v;
      if (v instanceof Map) {
        const m = new GoMap();
        for (const [k, x] of v) m.set(String(k), fromJSON(x));
        return m;
      }
      if (Array.isArray(v)) return v.map(fromJSON);
      {
        const m = new GoMap();
        // Indexes, not `for … of` (an iterator and a result per key in code not yet optimised: every parameter set).
        const keys = Object.keys(v as object);
        for (let i = 0; i < keys.length; i++) m.set(keys[i], fromJSON((v as Record<string, unknown>)[keys[i]]));
        return m;
      }
    default:
      return null;
  }
}

/**
 * Converts a Go value back to JSON-like JavaScript (maps → null-prototype-free plain objects built
 * with defineProperty, so `__proto__` stays an ordinary key). int kinds become numbers.
 */
export function toJSON(v: GoValue | undefined): unknown {
  if (v === undefined || v === null) return null;
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof GoInt64) return Number(v.v);
  if (Array.isArray(v)) return v.map(toJSON);
  if (v instanceof GoMap || v instanceof GoStringMap) {
    const o: Record<string, unknown> = {};
    for (const [k, x] of v) Object.defineProperty(o, k, { value: toJSON(x), enumerable: true, writable: true, configurable: true });
    return o;
  }
  if (v instanceof GoTime) return new Date(v.ms).toISOString();
  if (v instanceof GoOther) return v.print();
  return v;
}

/** The Go type of a scalar (string, float64, int, bool, int64), which is also its reflect Kind; undefined for others. */
export function scalarType(v: GoValue | undefined): 'string' | 'float64' | 'int' | 'bool' | 'int64' | undefined {
  switch (typeof v) {
    case 'string':
      return 'string';
    case 'number':
      return 'float64';
    case 'bigint':
      return 'int';
    case 'boolean':
      return 'bool';
  }
  return v instanceof GoInt64 ? 'int64' : undefined;
}

/** Go type name as `%T` / `typeOf` print it. */
export function goTypeName(v: GoValue | undefined): string {
  if (v === undefined || v === null) return '<nil>';
  const scalar = scalarType(v);
  if (scalar) return scalar;
  if (Array.isArray(v)) return '[]interface {}';
  if (v instanceof GoStringMap) return 'map[string]string';
  if (v instanceof GoMap) return 'map[string]interface {}';
  if (v instanceof GoTime) return 'time.Time';
  if (v instanceof GoOther) return v.type;
  return 'unknown';
}

const RAW_BYTE = /[\uDC80-\uDCFF]/;
const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;

/** The bytes of a Go string (raw bytes kept as U+DC80–U+DCFF come back as themselves). */
export function utf8Bytes(s: string): Buffer {
  if (!RAW_BYTE.test(s)) return Buffer.from(s, 'utf8');
  const parts: Buffer[] = [];
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xdc80 && c <= 0xdcff && !(i > 0 && isHigh(s.charCodeAt(i - 1)))) {
      parts.push(Buffer.from(s.slice(from, i), 'utf8'), Buffer.from([c - 0xdc00]));
      from = i + 1;
    }
  }
  parts.push(Buffer.from(s.slice(from), 'utf8'));
  return Buffer.concat(parts);
}

/** len() of a Go string. */
export function byteLength(s: string): number {
  return RAW_BYTE.test(s) ? utf8Bytes(s).length : Buffer.byteLength(s, 'utf8');
}

const strictUTF8 = new TextDecoder('utf-8', { fatal: true });

/** A Go string from bytes: valid UTF-8 decodes, every other byte is kept raw (see the model above). */
export function goString(b: Uint8Array): string {
  try {
    return strictUTF8.decode(b);
  } catch {
    // fall through to the byte-by-byte decode (utf8.DecodeRune's rules)
  }
  let out = '';
  for (let i = 0; i < b.length;) {
    const c = b[i];
    let n = 0,
      min = 0,
      cp = 0;
    if (c < 0x80) {
      out += String.fromCharCode(c);
      i++;
      continue;
    } else if (c >= 0xc2 && c <= 0xdf) ((n = 1), (min = 0x80), (cp = c & 0x1f));
    else if (c >= 0xe0 && c <= 0xef) ((n = 2), (min = 0x800), (cp = c & 0x0f));
    else if (c >= 0xf0 && c <= 0xf4) ((n = 3), (min = 0x10000), (cp = c & 0x07));
    let ok = n > 0 && i + n < b.length;
    if (ok) {
      for (let k = 1; k <= n; k++) {
        const x = b[i + k];
        if ((x & 0xc0) !== 0x80) {
          ok = false;
          break;
        }
        cp = (cp << 6) | (x & 0x3f);
      }
    }
    if (ok && cp >= min && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff)) {
      out += String.fromCodePoint(cp);
      i += n + 1;
    } else {
      out += String.fromCharCode(0xdc00 + c);
      i++;
    }
  }
  return out;
}

/** What leaves the engine: raw bytes become U+FFFD, as encoding/json writes invalid UTF-8. */
export function toValidUTF8(s: string): string {
  return RAW_BYTE.test(s) ? s.replace(/[\uD800-\uDBFF][\uDC00-\uDFFF]|[\uDC80-\uDCFF]/g, (m) => (m.length === 2 ? m : '\uFFFD')) : s;
}
