// One test of "is this an ApplicationSet": engine/kinds/ (appset.ts) decides what a document is.
// Elsewhere nothing compares a value with 'ApplicationSet', switches on it, or runs a pattern for
// `kind: ApplicationSet` over text (a regular expression, `new RegExp`, or a string search).
import { calledMember, stringOf, unwrap } from './syntax.mjs';

const KIND = 'ApplicationSet';
const EQUALITY = new Set(['===', '!==', '==', '!=']);
/** String methods that search their text for their argument. */
const SEARCHES = new Set(['includes', 'indexOf', 'lastIndexOf', 'startsWith', 'endsWith', 'match', 'matchAll', 'search', 'split']);
/** A pattern or a searched string that looks for a `kind:` line naming ApplicationSet. */
const KIND_PATTERN = /kind[\s\S]*ApplicationSet/;

const isKindLiteral = (node) => stringOf(node) === KIND;
const listHoldsKind = (node) => {
  const n = unwrap(node);
  return n?.type === 'ArrayExpression' && n.elements.some((e) => e && isKindLiteral(e));
};

export default {
  meta: {
    type: 'problem',
    docs: { description: 'What a document is gets decided in engine/kinds/ only.' },
    schema: [],
    messages: {
      compare:
        'This decides whether something is an ApplicationSet ({{how}}): ask engine/kinds/ (isAppSetValue, looksLikeAppSet) instead, the one test of it.',
    },
  },
  create(context) {
    const report = (node, how) => context.report({ node, messageId: 'compare', data: { how } });
    return {
      BinaryExpression(node) {
        if (EQUALITY.has(node.operator) && (isKindLiteral(node.left) || isKindLiteral(node.right))) report(node, node.operator);
      },
      SwitchCase(node) {
        if (node.test && isKindLiteral(node.test)) report(node, 'case');
      },
      Literal(node) {
        if (node.regex && KIND_PATTERN.test(node.regex.pattern)) report(node, 'a regular expression');
      },
      'NewExpression, CallExpression'(node) {
        const callee = unwrap(node.callee);
        if (callee?.type === 'Identifier' && callee.name === 'RegExp') {
          const s = node.arguments[0] && stringOf(node.arguments[0]);
          if (s !== undefined && KIND_PATTERN.test(s)) report(node, 'new RegExp');
          return;
        }
        const m = node.type === 'CallExpression' ? calledMember(node) : undefined;
        if (!m) return;
        // text.includes('kind: ApplicationSet')
        if (SEARCHES.has(m.name) && node.arguments.some((a) => KIND_PATTERN.test(stringOf(a) ?? ''))) report(node, `.${m.name}()`);
        // ['ApplicationSet', …].includes(kind), new Set(['ApplicationSet']).has(kind)
        else if (['includes', 'indexOf', 'has'].includes(m.name) && (listHoldsKind(m.object) || node.arguments.some(isKindLiteral)))
          report(node, `.${m.name}()`);
        else if (m.name === 'has' && unwrap(m.object)?.type === 'NewExpression' && listHoldsKind(unwrap(m.object).arguments[0]))
          report(node, '.has()');
      },
    };
  },
};
