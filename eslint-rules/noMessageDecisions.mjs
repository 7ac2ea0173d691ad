// Problems are values, not text (ARCHITECTURE.md): nothing decides by reading an error's or a finding's
// message. A message is built, or copied through as the library words it; what a caller decides by
// is a code, a reason, a kind, a class or a place carried with it.
//
// Where those values are made: a structural generator error is marked where it is thrown
// (`GeneratorError.structural`); an Application the controller skips carries `invalid: { kind, message }[]`
// (expand/types.ts); a template error carries the library's `reason` (gotemplate/reason.ts, kept through
// function calls and `tpl`) and the `place` Go's text names; a template finding hands its quick fixes the
// undefined function's name as `data` (expand/templateCodes.ts); the install model's facts are flags beside
// their words (`EnablementInstance.rejected`/`mapped`, evidence `unlisted`/`undeployed`). The `yaml`
// library's errors are read by their `code` and place, an alias refusal by its class, and JavaScript's stack
// overflow by gotemplate/stackOverflow.ts, this rule's one allowed place.
//
// A message here is `.message`, the plain-words `.why` and `.description` of installs and evidence, a
// `msg` or `message` name, `String(e)`, any of those changed by a string method (`.toLowerCase()`,
// `.trim()`, …) and any name bound to one of them. Deciding is searching it, splitting it, running a
// RegExp over it, comparing it, switching on it or looking it up in a set or a table.
import { calledMember, propertyName, taintedNames, unwrap } from './syntax.mjs';

const MESSAGE_PROPERTIES = new Set(['message', 'why', 'description']);
const MESSAGE_NAMES = new Set(['msg', 'message']);
const ERROR_NAMES = new Set(['e', 'err', 'error']);
/** String methods whose result is still the message's text. */
const SAME_TEXT = new Set([
  'toLowerCase',
  'toUpperCase',
  'toLocaleLowerCase',
  'toLocaleUpperCase',
  'trim',
  'trimStart',
  'trimEnd',
  'normalize',
  'slice',
  'substring',
  'substr',
  'replace',
  'replaceAll',
  'toString',
  'valueOf',
  'at',
  'concat',
  'padStart',
  'padEnd',
]);
/** Methods of the message that read it. */
const READS = new Set([
  'match',
  'matchAll',
  'includes',
  'startsWith',
  'endsWith',
  'search',
  'indexOf',
  'lastIndexOf',
  'split',
  'localeCompare',
]);
/** Methods that read their argument: a RegExp's, a list's, a set's or a table's. */
const READ_ARGUMENT = new Set([
  'test',
  'exec',
  'includes',
  'indexOf',
  'lastIndexOf',
  'has',
  'get',
  'startsWith',
  'endsWith',
  'match',
  'search',
]);

function isMessage(node, tainted) {
  const n = unwrap(node);
  if (!n) return false;
  if (n.type === 'Identifier') return MESSAGE_NAMES.has(n.name) || tainted.has(n.name);
  if (n.type === 'MemberExpression') {
    const name = propertyName(n);
    if (name !== undefined && MESSAGE_PROPERTIES.has(name)) return true;
    // `e.message.split('\n')[0]`, `lines[0]` of a message
    return n.computed && isMessage(n.object, tainted);
  }
  if (n.type === 'CallExpression') {
    const callee = unwrap(n.callee);
    if (callee?.type === 'Identifier' && callee.name === 'String' && n.arguments.length === 1) {
      const a = unwrap(n.arguments[0]);
      return (a?.type === 'Identifier' && ERROR_NAMES.has(a.name)) || isMessage(a, tainted);
    }
    const m = calledMember(n);
    if (m && (SAME_TEXT.has(m.name) || m.name === 'split')) return isMessage(m.object, tainted);
    return false;
  }
  if (n.type === 'LogicalExpression') return isMessage(n.left, tainted) || isMessage(n.right, tainted);
  if (n.type === 'ConditionalExpression') return isMessage(n.consequent, tainted) || isMessage(n.alternate, tainted);
  if (n.type === 'AwaitExpression') return isMessage(n.argument, tainted);
  return false;
}

/** `undefined`, `null`: asking whether a message is there is not reading it. */
const isAbsence = (node) => {
  const n = unwrap(node);
  return (n.type === 'Identifier' && n.name === 'undefined') || (n.type === 'Literal' && n.value === null) || n.type === 'UnaryExpression';
};

const COMPARE = new Set(['===', '!==', '==', '!=', '<', '>', '<=', '>=']);

export default {
  meta: {
    type: 'problem',
    docs: { description: "Nothing decides by a message's text: problems carry codes, reasons and places (ARCHITECTURE.md)." },
    schema: [],
    messages: {
      read: "This decides by a message's text ({{how}}): decide by a code, a reason, a kind or a place carried with the problem (ARCHITECTURE.md, problems are values).",
    },
  },
  create(context) {
    let tainted = new Set();
    const report = (node, how) => context.report({ node, messageId: 'read', data: { how } });
    return {
      Program(program) {
        tainted = taintedNames(program, (init, names) => isMessage(init, names));
      },
      CallExpression(node) {
        const m = calledMember(node);
        if (!m) return;
        if (READS.has(m.name) && isMessage(m.object, tainted)) report(node, `.${m.name}()`);
        else if (READ_ARGUMENT.has(m.name) && node.arguments.some((a) => isMessage(a, tainted))) report(node, `.${m.name}(message)`);
      },
      BinaryExpression(node) {
        if (node.operator === 'in' && isMessage(node.left, tainted)) report(node, 'in');
        if (!COMPARE.has(node.operator) || isAbsence(node.left) || isAbsence(node.right)) return;
        if (isMessage(node.left, tainted) || isMessage(node.right, tainted)) report(node, node.operator);
      },
      SwitchStatement(node) {
        if (isMessage(node.discriminant, tainted)) report(node.discriminant, 'switch');
      },
      MemberExpression(node) {
        // TABLE[e.message]: a look-up by the text
        if (node.computed && isMessage(node.property, tainted) && node.parent?.type !== 'AssignmentExpression')
          report(node, 'a table look-up');
      },
    };
  },
};
