// The schema objects in ajv's standalone code, cut to what the code reads of them (esbuild.js, issue 39).
//
// ajv's standalone code declares, at its top level, every schema object its validators refer to, whole:
// for the ApplicationSet schema the root schema itself (21 KiB of object literal) and 18 others, 37 KiB in
// all, of which the code reads only the property names of a few `properties` (an `additionalProperties:
// false` check with many properties asks `Object.prototype.hasOwnProperty.call(schemaN.properties…, key)`)
// and two values for its errors' params (an `enum`'s allowed values, a `type`'s types). Building those
// literals was a third of the validator's load in front of every start's first answer (its top level
// 0.55 → 0.22 ms, the code cache's read 0.6 → 0.5 ms in a fresh process).
//
// So each `const schemaN = {…};` is replaced by one constant per path the code reads: the property names
// only where the code only asks hasOwnProperty of it (`{"name":1,…}`: the same own keys), the value as
// written elsewhere. A declaration the code refers to in any other way (bracket access, a path that is not
// in the schema), whose text is not plain JSON, or whose text names `__proto__` is left whole. The
// behaviour is the same: test/unit/engine/validate/schema-literals.test.ts validates the fixtures and
// examples and documents made to fail each use with both codes and compares every error.
'use strict';

/** End (exclusive) of the JSON object or array that starts at `code[i]`, or -1. */
function jsonEnd(code, i) {
  let depth = 0;
  for (let j = i; j < code.length; j++) {
    const c = code[j];
    if (c === '"') {
      for (j++; j < code.length && code[j] !== '"'; j++) if (code[j] === '\\') j++;
    } else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      if (--depth === 0) return j + 1;
    }
  }
  return -1;
}

/** `value` at the dotted `path` (`.properties.spec`), through own keys only; undefined when absent. */
function at(value, path) {
  let v = value;
  for (const k of path.split('.').slice(1)) {
    if (v === null || typeof v !== 'object' || !Object.prototype.hasOwnProperty.call(v, k)) return undefined;
    v = v[k];
  }
  return v;
}

/** ajv's standalone `code` with its schema literals cut to what it reads (see above). */
function trimSchemaLiterals(code) {
  const hasOwn = /const (func\d+) = Object\.prototype\.hasOwnProperty;/.exec(code)?.[1];
  const edits = [];
  for (const m of code.matchAll(/const (schema\d+) = (?=[{[])/g)) {
    const name = m[1];
    // (Names of the form `schemaN_i` are this file's: ajv's code must not hold one already.)
    if (code.includes(`${name}_`)) continue;
    const start = m.index;
    const literalAt = start + m[0].length;
    const literalEnd = jsonEnd(code, literalAt);
    if (literalEnd < 0 || code[literalEnd] !== ';') continue;
    const text = code.slice(literalAt, literalEnd);
    if (text.includes('"__proto__"')) continue;
    let value;
    try {
      value = JSON.parse(text);
    } catch {
      continue;
    }
    const end = literalEnd + 1;
    const refs = [];
    let whole = false;
    for (const r of code.matchAll(new RegExp(`(?<![\\w$])${name}((?:\\.[A-Za-z_$][\\w$]*)*)(?![\\w$])`, 'g'))) {
      if (r.index === start + 'const '.length) continue;
      const v = at(value, r[1]);
      if (code[r.index + r[0].length] === '[' || v === undefined) {
        whole = true;
        break;
      }
      const keysOnly =
        hasOwn !== undefined &&
        code.slice(r.index - `${hasOwn}.call(`.length, r.index) === `${hasOwn}.call(` &&
        code[r.index + r[0].length] === ',' &&
        v !== null &&
        typeof v === 'object' &&
        !Array.isArray(v);
      refs.push({ start: r.index, end: r.index + r[0].length, v, keysOnly, path: r[1] });
    }
    if (whole) continue;
    // One constant per path and use, declared where the literal was.
    const names = new Map();
    let declared = '';
    for (const ref of refs) {
      const key = (ref.keysOnly ? 'keys' : 'value') + ref.path;
      let short = names.get(key);
      if (!short) {
        short = `${name}_${names.size}`;
        names.set(key, short);
        const literal = ref.keysOnly
          ? `{${Object.keys(ref.v)
              .map((k) => `${JSON.stringify(k)}:1`)
              .join(',')}}`
          : JSON.stringify(ref.v);
        declared += `const ${short} = ${literal};`;
      }
      edits.push([ref.start, ref.end, short]);
    }
    edits.push([start, end, declared]);
  }
  edits.sort((a, b) => b[0] - a[0]);
  let out = code;
  for (const [s, e, t] of edits) out = out.slice(0, s) + t + out.slice(e);
  return out;
}

module.exports = { trimSchemaLiterals };
