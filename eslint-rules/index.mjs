// The architecture's source rules as syntax-tree lint rules (ARCHITECTURE.md, invariants): wired into
// eslint.config.mjs per folder, so `npx eslint` (and `npm test`) holds them, and the editor shows them
// while you type. test/unit/architecture-rules.test.ts plants each kind of break and asserts it is caught.
import listedDependencies from './listedDependencies.mjs';
import noMessageDecisions from './noMessageDecisions.mjs';
import noProcessState from './noProcessState.mjs';
import oneFindingConstructor from './oneFindingConstructor.mjs';
import oneKindTest from './oneKindTest.mjs';
import pathLookups from './pathLookups.mjs';
import severityFromRegistry from './severityFromRegistry.mjs';
import typedRequests from './typedRequests.mjs';

export default {
  meta: { name: 'appset-architecture' },
  rules: {
    'listed-dependencies': listedDependencies,
    'no-message-decisions': noMessageDecisions,
    'no-process-state': noProcessState,
    'one-finding-constructor': oneFindingConstructor,
    'one-kind-test': oneKindTest,
    'path-lookups': pathLookups,
    'severity-from-registry': severityFromRegistry,
    'typed-requests': typedRequests,
  },
};
