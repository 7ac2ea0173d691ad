// A finding's severity comes from the code registry: the code lists (`X_CODES = [...] as const`,
// engine/codeLists/) are the one place a severity is written; everywhere else it is
// `finding(code, …)` or `severityOf(code)`. Reports a severity word written as a `severity` field,
// assigned to one, or bound to a name that then becomes one.
import { taintedNames, unwrap } from './syntax.mjs';

const SEVERITIES = new Set(['error', 'warning', 'information', 'hint']);

/** The expression can evaluate to a severity word written right there (or through a name bound to one). */
function writesSeverity(node, names) {
  const n = unwrap(node);
  if (!n) return false;
  if (n.type === 'Literal') return SEVERITIES.has(n.value);
  if (n.type === 'TemplateLiteral') return n.expressions.length === 0 && SEVERITIES.has(n.quasis[0].value.cooked);
  if (n.type === 'Identifier') return names.has(n.name);
  if (n.type === 'ConditionalExpression') return writesSeverity(n.consequent, names) || writesSeverity(n.alternate, names);
  if (n.type === 'LogicalExpression') return writesSeverity(n.left, names) || writesSeverity(n.right, names);
  return false;
}

const isSeverityKey = (key) =>
  (key.type === 'Identifier' && key.name === 'severity') || (key.type === 'Literal' && key.value === 'severity');

/** Inside a code list: `export const X_CODES = [...]`. */
function inRegistry(node) {
  for (let p = node.parent; p; p = p.parent)
    if (p.type === 'VariableDeclarator' && p.id.type === 'Identifier' && /_CODES$/.test(p.id.name)) return true;
  return false;
}

export default {
  meta: {
    type: 'problem',
    docs: { description: "A finding's severity comes from the code registry (engine/codeLists/)." },
    schema: [],
    messages: {
      literal: 'A severity is written only in the code lists (engine/codeLists/): use finding(code, …) or severityOf(code).',
    },
  },
  create(context) {
    let names = new Set();
    return {
      Program(program) {
        names = taintedNames(program, (init) => writesSeverity(init, new Set()));
      },
      Property(node) {
        if (isSeverityKey(node.key) && writesSeverity(node.value, names) && !inRegistry(node))
          context.report({ node, messageId: 'literal' });
      },
      AssignmentExpression(node) {
        const left = unwrap(node.left);
        if (left.type === 'MemberExpression' && !left.computed && left.property.name === 'severity' && writesSeverity(node.right, names))
          context.report({ node, messageId: 'literal' });
      },
    };
  },
};
