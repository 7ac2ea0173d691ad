// The engine reads no process state (ARCHITECTURE.md: the outside world comes through EngineHost):
// no `process` however it is reached: `process.env`, `globalThis.process.env`, `global['process']`,
// a `process` passed on or destructured. Imports of Node's modules are the import check's
// (test/unit/architecture.test.ts); this rule is about the global.
import { propertyName, unwrap } from './syntax.mjs';

const GLOBAL_OBJECTS = new Set(['globalThis', 'global', 'window', 'self']);

export default {
  meta: {
    type: 'problem',
    docs: { description: 'The engine reads no process state: the outside world comes through EngineHost.' },
    schema: [],
    messages: {
      process: 'The engine reads no process state ({{what}}): take it from EngineHost (ARCHITECTURE.md, the engine and its host).',
    },
  },
  create(context) {
    const report = (node, what) => context.report({ node, messageId: 'process', data: { what } });
    return {
      'Program:exit'(program) {
        const scope = context.sourceCode.getScope(program);
        for (const ref of scope.through) if (ref.identifier.name === 'process') report(ref.identifier, 'process');
      },
      MemberExpression(node) {
        const object = unwrap(node.object);
        if (object?.type === 'Identifier' && GLOBAL_OBJECTS.has(object.name) && propertyName(node) === 'process')
          report(node, `${object.name}.process`);
        // globalThis[name] with a computed name could be anything, the process included
        if (object?.type === 'Identifier' && GLOBAL_OBJECTS.has(object.name) && node.computed && propertyName(node) === undefined)
          report(node, `${object.name}[…]`);
      },
      VariableDeclarator(node) {
        // const { process } = globalThis
        const init = unwrap(node.init);
        if (node.id.type !== 'ObjectPattern' || init?.type !== 'Identifier' || !GLOBAL_OBJECTS.has(init.name)) return;
        for (const p of node.id.properties)
          if (p.type === 'RestElement' || (p.key.type === 'Identifier' && p.key.name === 'process')) report(p, `${init.name}'s process`);
      },
    };
  },
};
