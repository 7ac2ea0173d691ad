// Spans come from the located fields. A check or feature that knows which field of an ApplicationSet it speaks
// of takes the field's place from the located fields (engine/fields/), read once with the value; it never
// looks a JSON path or an offset up in the tree afterwards: not with `nodeAt`, `spanAt`, `pathAt`
// (engine/yaml/document.ts) under whatever name they are imported, nor by walking a path down from the
// document's root field with the located fields' own `subPath`. Only the files in the rule's `allowed` option
// make look-ups, each with the names it may use and how many (a ratchet: a file may make fewer, then
// lower the number, never more). The list lives in eslint.config.mjs.
import { fileOf, propertyName, unwrap } from './syntax.mjs';

const LOOKUPS = new Set(['nodeAt', 'spanAt', 'pathAt']);

/** The document's root field: `x.root`, `rootField(…)`. */
function isRoot(node, roots) {
  const n = unwrap(node);
  if (!n) return false;
  if (n.type === 'MemberExpression') return propertyName(n) === 'root';
  if (n.type === 'CallExpression') {
    const c = unwrap(n.callee);
    return c?.type === 'Identifier' && c.name === 'rootField';
  }
  return n.type === 'Identifier' && roots.has(n.name);
}

export default {
  meta: {
    type: 'problem',
    docs: {
      description: 'Checks take spans from the located fields: path and offset look-ups only in yaml/, fields/ and the listed files.',
    },
    schema: [
      {
        type: 'object',
        properties: {
          allowed: {
            type: 'object',
            additionalProperties: {
              type: 'object',
              properties: { names: { type: 'array', items: { type: 'string' } }, calls: { type: 'integer' }, why: { type: 'string' } },
              required: ['names', 'calls'],
            },
          },
        },
        additionalProperties: false,
      },
    ],
    messages: {
      lookup: '{{name}} looks a field up by path or offset: take the span from the located fields (engine/fields/), read with the value.',
      over: 'This file makes {{count}} path look-ups, {{calls}} allowed (eslint.config.mjs): take the span from the located fields (engine/fields/).',
      stale: 'This file makes {{count}} path look-ups, {{calls}} listed: lower its number in eslint.config.mjs (a ratchet).',
    },
  },
  create(context) {
    const allowed = (context.options[0]?.allowed ?? {})[fileOf(context)];
    /** Each look-up as the node and the library's name for it. */
    const found = [];
    const namespaces = new Set();
    const subPaths = new Set();
    const roots = new Set();
    const sourceCode = context.sourceCode;
    return {
      ImportDeclaration(node) {
        for (const s of node.specifiers) {
          if (s.type === 'ImportNamespaceSpecifier') namespaces.add(s.local.name);
          if (s.type !== 'ImportSpecifier') continue;
          const name = s.imported.type === 'Identifier' ? s.imported.name : s.imported.value;
          if (name === 'subPath') subPaths.add(s.local.name);
          if (!LOOKUPS.has(name)) continue;
          // every use of the imported binding, called or passed on, is a look-up
          for (const v of sourceCode.getDeclaredVariables(s))
            for (const r of v.references) if (r.identifier !== s.local) found.push({ node: r.identifier, name });
        }
      },
      ExportSpecifier(node) {
        const name = node.local.type === 'Identifier' ? node.local.name : node.local.value;
        if (LOOKUPS.has(name) && node.parent.source) found.push({ node, name });
      },
      MemberExpression(node) {
        const o = unwrap(node.object);
        const name = propertyName(node);
        if (o?.type === 'Identifier' && namespaces.has(o.name) && LOOKUPS.has(name)) found.push({ node, name });
      },
      VariableDeclarator(node) {
        if (node.id.type === 'Identifier' && node.init && isRoot(node.init, roots)) roots.add(node.id.name);
      },
      CallExpression(node) {
        const c = unwrap(node.callee);
        const isSubPath =
          (c?.type === 'Identifier' && subPaths.has(c.name)) ||
          (c?.type === 'MemberExpression' && propertyName(c) === 'subPath' && namespaces.has(unwrap(c.object)?.name));
        if (isSubPath && node.arguments[0] && isRoot(node.arguments[0], roots)) found.push({ node, name: 'subPath from the root' });
      },
      'Program:exit'(program) {
        const other = found.filter((f) => !allowed?.names.includes(f.name));
        for (const f of other) context.report({ node: f.node, messageId: 'lookup', data: { name: f.name } });
        if (!allowed || other.length) return;
        const data = { count: String(found.length), calls: String(allowed.calls) };
        if (found.length > allowed.calls) context.report({ node: found[allowed.calls].node, messageId: 'over', data });
        else if (found.length < allowed.calls) context.report({ node: program, loc: { line: 1, column: 0 }, messageId: 'stale', data });
      },
    };
  },
};
