// Custom requests go through the typed request table (protocol.ts `RequestTypes`): the client sends
// only through client/src/request.ts `request()`, the server registers a custom request only through
// `handle()` in server/src/lsp/handlers/requests.ts. Configured per folder in eslint.config.mjs.
import { calledMember, taintedNames, unwrap } from './syntax.mjs';

/** `Requests.x`, `Requests['x']`, or a name bound to one. */
function namesRequest(node, names) {
  const n = unwrap(node);
  if (!n) return false;
  if (n.type === 'Identifier') return n.name === 'Requests' || names.has(n.name);
  if (n.type === 'MemberExpression') return namesRequest(n.object, names);
  if (n.type === 'ConditionalExpression') return namesRequest(n.consequent, names) || namesRequest(n.alternate, names);
  return false;
}

export default {
  meta: {
    type: 'problem',
    docs: { description: "Custom requests go through the typed request table (protocol.ts's RequestTypes)." },
    schema: [{ type: 'object', properties: { send: { type: 'boolean' }, register: { type: 'boolean' } }, additionalProperties: false }],
    messages: {
      send: 'The client sends a request only through client/src/request.ts `request()`, which types it by protocol.ts.',
      register: "A custom request is registered only through requests.ts's `handle()`, which types it by protocol.ts.",
    },
  },
  create(context) {
    const { send = false, register = false } = context.options[0] ?? {};
    let names = new Set();
    return {
      Program(program) {
        if (register) names = taintedNames(program, (init, known) => namesRequest(init, known));
      },
      CallExpression(node) {
        const m = calledMember(node);
        if (send && m?.name === 'sendRequest') context.report({ node, messageId: 'send' });
        if (register && m?.name === 'onRequest' && node.arguments.length && namesRequest(node.arguments[0], names))
          context.report({ node, messageId: 'register' });
      },
    };
  },
};
