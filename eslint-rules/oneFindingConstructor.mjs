// One way to make a finding: `finding(code, message, at, extra)` (engine/diagnostics/codes.ts), which
// takes the severity from the code registry and the range from the located field it is given. So a
// rule is one call, and a reader looking for where a code is found greps for `finding('code'`.
// Reports what builds or rebuilds a finding by hand:
// - an object literal with a `severity` beside a `code` or a spread (`{ code, severity: …, message, span }`,
//   `{ ...d, severity: … }`), which is what a finding, an expansion problem or an occurrence is;
// - an assignment to a `severity` (`d.severity = …`);
// - an object literal asserted to be a finding (`{ code, message, span } as EngineDiagnostic`), which
//   would skip the registry's severity altogether.
// The finding's own home (engine/diagnostics/: the constructor, grouping occurrences by site keeps the
// worst of their registered severities) and the user's severity override (config/apply.ts) are turned
// off for it in eslint.config.mjs; the code lists are plain data and are not findings.
import { unwrap } from './syntax.mjs';

const FINDING_TYPES = new Set(['EngineDiagnostic', 'ExpansionProblem', 'Occurrence', 'Finding']);

const keyName = (key) => (key.type === 'Identifier' ? key.name : key.type === 'Literal' ? String(key.value) : undefined);

/** Inside a code list: `export const X_CODES = [...]`. */
function inRegistry(node) {
  for (let p = node.parent; p; p = p.parent)
    if (p.type === 'VariableDeclarator' && p.id.type === 'Identifier' && /_CODES$/.test(p.id.name)) return true;
  return false;
}

function typeName(t) {
  if (!t) return undefined;
  if (t.type === 'TSTypeReference' && t.typeName.type === 'Identifier') return t.typeName.name;
  return undefined;
}

export default {
  meta: {
    type: 'problem',
    docs: { description: 'A finding is made only by finding() (engine/diagnostics/codes.ts).' },
    schema: [],
    messages: {
      literal:
        "A finding is made only by finding(code, message, field, extra) (engine/diagnostics/codes.ts): it takes the registry's severity and the located field's range.",
      assign: "A finding's severity is the registry's (finding(), severityOf): do not set it afterwards.",
      cast: 'An object literal asserted to be a finding skips the registry: make it with finding(code, message, field, extra).',
    },
  },
  create(context) {
    return {
      ObjectExpression(node) {
        if (inRegistry(node)) return;
        let severity = false;
        let codeOrSpread = false;
        for (const p of node.properties) {
          if (p.type === 'SpreadElement') codeOrSpread = true;
          else if (p.type === 'Property') {
            const k = keyName(p.key);
            if (k === 'severity') severity = true;
            if (k === 'code') codeOrSpread = true;
          }
        }
        if (severity && codeOrSpread) context.report({ node, messageId: 'literal' });
      },
      AssignmentExpression(node) {
        const left = unwrap(node.left);
        if (left.type !== 'MemberExpression') return;
        const name = left.computed ? (left.property.type === 'Literal' ? left.property.value : undefined) : left.property.name;
        if (name === 'severity') context.report({ node, messageId: 'assign' });
      },
      'TSAsExpression, TSTypeAssertion, TSSatisfiesExpression'(node) {
        const e = unwrap(node.expression);
        const literal =
          e?.type === 'ObjectExpression' ||
          (e?.type === 'ArrayExpression' && e.elements.some((x) => unwrap(x)?.type === 'ObjectExpression'));
        if (!literal) return;
        const t = node.typeAnnotation;
        const name = typeName(t) ?? (t?.type === 'TSArrayType' ? typeName(t.elementType) : undefined);
        if (name && FINDING_TYPES.has(name)) context.report({ node, messageId: 'cast' });
      },
    };
  },
};
