// Small helpers over ESTree nodes shared by the architecture rules (eslint-rules/index.mjs).

/** The expression under `x!`, `x as T`, `x satisfies T`, `<T>x` and an optional chain's wrapper. */
export function unwrap(node) {
  let n = node;
  while (
    n &&
    (n.type === 'TSNonNullExpression' ||
      n.type === 'TSAsExpression' ||
      n.type === 'TSSatisfiesExpression' ||
      n.type === 'TSTypeAssertion' ||
      n.type === 'ChainExpression')
  )
    n = n.expression;
  return n;
}

/** The name of a member's property when it is written out (`a.b`, `a?.b`, `a['b']`), else undefined. */
export function propertyName(member) {
  if (member.type !== 'MemberExpression') return undefined;
  if (!member.computed && member.property.type === 'Identifier') return member.property.name;
  if (member.computed && member.property.type === 'Literal' && typeof member.property.value === 'string') return member.property.value;
  if (member.computed && member.property.type === 'TemplateLiteral' && member.property.expressions.length === 0)
    return member.property.quasis[0].value.cooked;
  return undefined;
}

/** The called member's name and object of `obj.name(…)` / `obj?.name(…)`, or undefined. */
export function calledMember(call) {
  if (call.type !== 'CallExpression') return undefined;
  const callee = unwrap(call.callee);
  const name = callee && propertyName(callee);
  return name === undefined ? undefined : { name, object: callee.object };
}

/** A string's text when the node is a string literal or a template literal without expressions. */
export function stringOf(node) {
  const n = unwrap(node);
  if (!n) return undefined;
  if (n.type === 'Literal' && typeof n.value === 'string') return n.value;
  if (n.type === 'TemplateLiteral') return n.quasis.map((q) => q.value.cooked ?? q.value.raw).join('');
  return undefined;
}

/** The repository-relative path of the file being linted, with forward slashes. */
export function fileOf(context) {
  const cwd = (context.cwd ?? context.getCwd()).replace(/\\/g, '/');
  const f = (context.filename ?? context.getFilename()).replace(/\\/g, '/');
  return f.startsWith(cwd + '/') ? f.slice(cwd.length + 1) : f;
}

/**
 * Names bound in this file to a value the test says is tainted: `const m = e.message`,
 * `let m; m = e.message`, `const { message: m } = e`. Followed to a fixed point, so a copy of a copy
 * counts too. Names only (not scopes): a rule is strict rather than clever.
 */
export function taintedNames(program, isTainted) {
  const names = new Set();
  const pairs = [];
  const visit = (node) => {
    if (!node || typeof node.type !== 'string') return;
    if (node.type === 'VariableDeclarator' && node.init) pairs.push([node.id, node.init]);
    if (node.type === 'AssignmentExpression' && node.left.type === 'Identifier') pairs.push([node.left, node.right]);
    for (const key of Object.keys(node)) {
      if (key === 'parent') continue;
      const v = node[key];
      if (Array.isArray(v)) v.forEach(visit);
      else if (v && typeof v.type === 'string') visit(v);
    }
  };
  visit(program);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [id, init] of pairs) {
      if (id.type === 'Identifier' && !names.has(id.name) && isTainted(init, names)) {
        names.add(id.name);
        grew = true;
      }
      if (id.type === 'ObjectPattern')
        for (const p of id.properties) {
          if (p.type !== 'Property' || p.value.type !== 'Identifier' || names.has(p.value.name)) continue;
          const key = p.key.type === 'Identifier' ? p.key.name : p.key.value;
          if (isTainted({ type: 'MemberExpression', computed: false, object: init, property: { type: 'Identifier', name: key } }, names)) {
            names.add(p.value.name);
            grew = true;
          }
        }
    }
  }
  return names;
}
