/**
 * Executor for parsed Go templates (text/template exec.go of Go 1.26) over the value model of
 * values.ts. Values inside the executor are `Val`s: `undefined` is Go's invalid reflect.Value
 * (what a missing map key yields, printed `<no value>`), `null` a nil interface{} (a JSON null).
 *
 * Bounded: template-call depth, loop iterations and output size are capped so hostile templates
 * end with an error instead of hanging or overflowing the JS stack.
 */
import type {
  Node,
  PipeNode,
  CommandNode,
  FieldNode,
  ChainNode,
  VariableNode,
  IdentifierNode,
  NumberNode,
  BranchNode,
  TemplateNode,
  ListNode,
  TextNode,
} from './ast';
import { str } from './ast';
import type { Tree } from './parse';
import { reasonOf, type TemplateReason } from './reason';
import { GoPlacedError } from './errors';
import type { GoFunc, GoParamType } from './funcs';
import { byteLength, GoInt64, GoMap, GoNilMap, GoOther, GoStringMap, GoTime, utf8Bytes, type GoValue } from './values';
import { isStackOverflow } from './stackOverflow';
import { formatValue, goQuote, goUint8, goUint64, unsignedOf } from './format';
import { isTrue, kindOf, typeString, truth, type Builtin, type Val, type ValueFunc } from './builtins';
import {
  DEFAULT_OUTPUT_LIMIT,
  DEFAULT_STEP_LIMIT,
  charge,
  charged,
  chargeResult,
  execLimits,
  freshWork,
  LIMIT_TEXT,
  restoreWork,
  TOO_DEEP_MESSAGE,
  withWorkBudget,
  WorkLimitError,
} from './budget';

export type MissingKey = 'invalid' | 'zero' | 'error';

/** Go's maxExecDepth is 100000; JS stacks are smaller, so we stop earlier with Go's message. */
const MAX_TEMPLATE_DEPTH = 1000;
const GO_MAX_EXEC_DEPTH = 100000;
/** Loop iterations + template calls + function calls per execution; output size (UTF-16 units). See budget.ts. */
export const MAX_STEPS = DEFAULT_STEP_LIMIT;
export const MAX_OUTPUT = DEFAULT_OUTPUT_LIMIT;

/** An execution error at a node of the template (errors.ts `GoPlacedError`). */
export class GoExecError extends GoPlacedError {}

class BreakSignal {}
class ContinueSignal {}
const BREAK = new BreakSignal();
const CONTINUE = new ContinueSignal();

/** Marker for "no final (piped) value" (Go's missingVal). */
const MISSING: unique symbol = Symbol('missing');
/** The reason every limit error carries. */
const LIMIT: TemplateReason = { kind: 'limit' };
/** `n` untyped parameters (a value function's signature), one array per count: built once, not per call. */
const untyped: 'value'[][] = [];
const valueParams = (n: number): 'value'[] => (untyped[n] ??= new Array<'value'>(n).fill('value'));
/** The value of each number constant node (`idealConstant`), read once. */
const constants = new WeakMap<NumberNode, Val>();
type Final = Val | typeof MISSING;

interface Variable {
  name: string;
  value: Val;
  /** The value came out of an interface{} slot (slice element or map[string]interface{} entry). */
  iface?: boolean;
}

export interface ExecOptions {
  text: string;
  parseName: string;
  trees: Map<string, Tree>;
  funcs: Map<string, GoFunc>;
  builtins: Map<string, Builtin>;
  missingKey: MissingKey;
  /** Go minor version modelled (range over an integer exists from Go 1.24); default 26. */
  goMinor?: number;
  /** Called with the name of every function that runs (for non-determinism reports). */
  onCall?: (name: string, fn: GoFunc) => void;
  /** Run inside a function call of another execution (`tpl`): its work counts against the caller's budget. */
  nested?: boolean;
  /** One step count for an execution and the executions run inside it (`tpl`), so nesting cannot multiply the limit. */
  shared?: { steps: number };
}

function utf8Len(s: string): number {
  return byteLength(s);
}

function paramTypeName(t: GoParamType): string {
  switch (t) {
    case 'any':
      return 'interface {}';
    case 'list':
      return '[]interface {}';
    case 'strings':
      return '[]string';
    case 'map':
      return 'map[string]interface {}';
    case 'time':
      return 'time.Time';
    default:
      return t;
  }
}

/** Is `v` (non-nil, valid) assignable to Go parameter type `t`? */
function assignable(v: GoValue, t: GoParamType): boolean {
  switch (t) {
    case 'any':
      return true;
    case 'string':
      return typeof v === 'string';
    case 'bool':
      return typeof v === 'boolean';
    case 'float64':
      return typeof v === 'number';
    case 'int':
      return typeof v === 'bigint';
    case 'int64':
      return v instanceof GoInt64;
    case 'list':
      return Array.isArray(v);
    case 'strings':
      return Array.isArray(v) && v.every((x) => typeof x === 'string');
    case 'map':
      return v instanceof GoMap;
    case 'time':
      return v instanceof GoTime;
    default:
      return v instanceof GoOther && v.type === t;
  }
}

class State {
  vars: Variable[];
  node: Node | null = null;
  out: string[] = [];
  outLen = 0;
  steps = 0;
  depth = 0;
  tmplName: string;
  /**
   * Dot came out of an interface{} slot (a range element). Go then reports field errors on it
   * with type `interface {}` rather than the concrete type.
   */
  dotIface = false;

  constructor(
    readonly o: ExecOptions,
    dot: Val,
    name: string,
  ) {
    this.vars = [{ name: '$', value: dot }];
    this.tmplName = name;
  }

  at(n: Node): void {
    this.node = n;
  }

  errorf(msg: string, reason?: TemplateReason): never {
    const n = this.node;
    if (!n) throw new GoExecError(`template: ${this.tmplName}: ${msg}`, 0, 0, reason);
    const text = this.o.text;
    const before = text.slice(0, n.pos);
    const nl = before.lastIndexOf('\n');
    let line = 1;
    for (let i = 0; i < before.length; i++) if (before.charCodeAt(i) === 10) line++;
    const col = nl < 0 ? utf8Len(before) : utf8Len(before.slice(nl + 1));
    const detail = `executing ${goQuote(this.tmplName)} at <${str(n)}>: ${msg}`;
    throw new GoExecError(
      `template: ${this.o.parseName}:${line}:${col}: ${detail}`,
      n.start ?? n.pos,
      Math.max(1, n.end - (n.start ?? n.pos)),
      reason,
      { line, detail },
    );
  }

  write(s: string): void {
    this.outLen += s.length;
    charge(0, s.length); // the output counts towards the ApplicationSet's total
    if (this.outLen > execLimits.output) this.errorf(`output exceeds ${execLimits.output} characters (${LIMIT_TEXT})`, LIMIT);
    this.out.push(s);
  }

  step(): void {
    const n = this.o.shared ? ++this.o.shared.steps : ++this.steps;
    if (n > execLimits.steps) this.errorf(`execution exceeds ${execLimits.steps} steps (${LIMIT_TEXT})`, LIMIT);
  }

  mark(): number {
    return this.vars.length;
  }
  pop(mark: number): void {
    // Setting an array's length is slow even when it does not change (a range's every iteration pops).
    if (this.vars.length !== mark) this.vars.length = mark;
  }
  setVar(name: string, value: Val, iface = false): void {
    for (let i = this.vars.length - 1; i >= 0; i--) {
      if (this.vars[i].name === name) {
        this.vars[i].value = value;
        this.vars[i].iface = iface;
        return;
      }
    }
    this.errorf(`undefined variable: ${name}`);
  }
  setTopVar(n: number, value: Val, iface = false): void {
    const v = this.vars[this.vars.length - n];
    v.value = value;
    v.iface = iface;
  }
  lookupVar(name: string): Variable {
    for (let i = this.vars.length - 1; i >= 0; i--) if (this.vars[i].name === name) return this.vars[i];
    this.errorf(`undefined variable: ${name}`);
  }

  walk(dot: Val, node: Node): void {
    this.at(node);
    switch (node.kind) {
      case 'action': {
        const val = this.evalPipeline(dot, node.pipe);
        if (node.pipe.decl.length === 0) this.printValue(node, val);
        return;
      }
      case 'break':
        throw BREAK;
      case 'continue':
        throw CONTINUE;
      case 'if':
      case 'with':
        return this.walkIfOrWith(node, dot);
      case 'list':
        for (const n of node.nodes) this.walk(dot, n);
        return;
      case 'range':
        return this.walkRange(dot, node);
      case 'template':
        return this.walkTemplate(dot, node);
      case 'text':
        this.write(node.text);
        return;
      default:
        this.errorf(`unknown node: ${str(node)}`);
    }
  }

  walkIfOrWith(node: BranchNode, dot: Val): void {
    const mark = this.mark();
    try {
      const val = this.evalPipeline(dot, node.pipe);
      const [t, ok] = isTrue(val === null ? undefined : val);
      if (!ok) this.errorf(`if/with can't use ${formatValue(val)}`);
      if (t && node.kind === 'with') this.walkWithDot(val, false, node.list);
      else if (t) this.walk(dot, node.list);
      else if (node.elseList) this.walk(dot, node.elseList);
    } finally {
      this.pop(mark);
    }
  }

  walkWithDot(dot: Val, iface: boolean, node: Node): void {
    const saved = this.dotIface;
    this.dotIface = iface;
    try {
      this.walk(dot, node);
    } finally {
      this.dotIface = saved;
    }
  }

  walkRange(dot: Val, r: BranchNode): void {
    this.at(r);
    const outer = this.mark();
    try {
      let val = this.evalPipeline(dot, r.pipe);
      if (val === null) val = undefined;
      const mark = this.mark();
      const decl = r.pipe.decl;
      const oneIteration = (index: Val, elem: Val, iface: boolean): void => {
        this.step();
        if (decl.length > 0) {
          if (r.pipe.isAssign) {
            if (decl.length > 1) this.setVar(decl[0].ident[0], index);
            else this.setVar(decl[0].ident[0], elem, iface);
          } else this.setTopVar(1, elem, iface);
        }
        if (decl.length > 1) {
          if (r.pipe.isAssign) this.setVar(decl[1].ident[0], elem, iface);
          else this.setTopVar(2, index);
        }
        try {
          this.walkWithDot(elem, iface, r.list);
        } catch (e) {
          if (e !== CONTINUE) throw e;
        } finally {
          this.pop(mark);
        }
      };
      let ran = false;
      try {
        switch (kindOf(val)) {
          case 'int':
          case 'int64':
          case 'uint8':
          case 'uint64': {
            if ((this.o.goMinor ?? 26) < 24) this.errorf(`range can't iterate over ${formatValue(val)}`, { kind: 'range-int' });
            if (decl.length > 1) this.errorf(`can't use ${formatValue(val)} to iterate over more than one variable`);
            const n = typeof val === 'bigint' ? val : val instanceof GoInt64 ? val.v : unsignedOf(val)!;
            const wrap = (i: bigint): Val =>
              typeof val === 'bigint'
                ? i
                : val instanceof GoInt64
                  ? new GoInt64(i)
                  : (val as GoOther).type === 'uint64'
                    ? goUint64(i)
                    : goUint8(Number(i));
            for (let i = 0n; i < n; i++) {
              ran = true;
              oneIteration(undefined, wrap(i), false);
            }
            break;
          }
          case 'slice': {
            const list = val as GoValue[];
            for (let i = 0; i < list.length; i++) {
              ran = true;
              oneIteration(BigInt(i), list[i], true);
            }
            break;
          }
          case 'map': {
            const m = val as Map<string, GoValue>;
            const keys = [...m.keys()].sort(compareKeys);
            for (const k of keys) {
              ran = true;
              oneIteration(k, m.get(k)!, m instanceof GoMap);
            }
            break;
          }
          case 'invalid':
            break;
          default:
            this.errorf(`range can't iterate over ${formatValue(val)}`);
        }
      } catch (e) {
        if (e !== BREAK) throw e;
        return;
      }
      if (!ran && r.elseList) this.walk(dot, r.elseList);
    } finally {
      this.pop(outer);
    }
  }

  walkTemplate(dot: Val, t: TemplateNode): void {
    this.at(t);
    const tree = this.o.trees.get(t.name);
    if (!tree) this.errorf(`template ${goQuote(t.name)} not defined`);
    if (this.depth >= MAX_TEMPLATE_DEPTH) this.errorf(`exceeded maximum template depth (${GO_MAX_EXEC_DEPTH})`);
    this.step();
    const newDot = this.evalPipeline(dot, t.pipe);
    const saved = { vars: this.vars, tmplName: this.tmplName };
    this.depth++;
    this.tmplName = t.name;
    this.vars = [{ name: '$', value: newDot }];
    try {
      this.walkWithDot(newDot, false, tree.root);
    } finally {
      this.depth--;
      this.vars = saved.vars;
      this.tmplName = saved.tmplName;
    }
  }

  evalPipeline(dot: Val, pipe: PipeNode | null): Val {
    if (!pipe) return undefined;
    this.at(pipe);
    let value: Final = MISSING;
    for (const cmd of pipe.cmds) {
      value = this.evalCommand(dot, cmd, value);
      // An interface{} result is unwrapped: a nil interface becomes the invalid value.
      if (value === null) value = undefined;
    }
    const v = value as Val;
    for (const variable of pipe.decl) {
      if (pipe.isAssign) this.setVar(variable.ident[0], v);
      else this.vars.push({ name: variable.ident[0], value: v });
    }
    return v;
  }

  notAFunction(args: Node[], final: Final): void {
    if (args.length > 1 || final !== MISSING) this.errorf(`can't give argument to non-function ${str(args[0])}`);
  }

  evalCommand(dot: Val, cmd: CommandNode, final: Final): Val {
    const first = cmd.args[0];
    switch (first.kind) {
      case 'field':
        return this.evalFieldNode(dot, first, cmd.args, final);
      case 'chain':
        return this.evalChainNode(dot, first, cmd.args, final);
      case 'identifier':
        return this.evalFunction(dot, first, cmd, cmd.args, final);
      case 'pipe':
        this.notAFunction(cmd.args, final);
        return this.evalPipeline(dot, first);
      case 'variable':
        return this.evalVariableNode(dot, first, cmd.args, final);
    }
    this.at(first);
    this.notAFunction(cmd.args, final);
    switch (first.kind) {
      case 'bool':
        return first.val;
      case 'dot':
        return dot;
      case 'nil':
        this.errorf('nil is not a command');
      // falls through: errorf never returns
      case 'number':
        return this.idealConstant(first);
      case 'string':
        return first.text;
    }
    this.errorf(`can't evaluate command ${goQuote(str(first))}`);
  }

  idealConstant(c: NumberNode): Val {
    this.at(c);
    if (c.isComplex) {
      const [re, im] = c.complex!;
      return new GoOther('complex128', [re, im], () => `(${formatValue(re)}${im < 0 || Object.is(im, -0) ? '' : '+'}${formatValue(im)}i)`);
    }
    // A constant's value depends on its node only: read once (a range evaluates it every iteration).
    if (constants.has(c)) return constants.get(c);
    const isHexInt = c.text.length > 2 && c.text[0] === '0' && (c.text[1] === 'x' || c.text[1] === 'X') && !/[pP]/.test(c.text);
    const isRune = c.text[0] === "'";
    let v: Val = undefined;
    if (c.isFloat && !isHexInt && !isRune && /[.eEpP]/.test(c.text)) v = c.float64;
    else if (c.isInt) v = c.int64;
    else if (c.isUint) this.errorf(`${c.text} overflows int`);
    constants.set(c, v);
    return v;
  }

  evalFieldNode(dot: Val, field: FieldNode, args: Node[], final: Final): Val {
    this.at(field);
    return this.evalFieldChain(dot, field, dot, this.dotIface, field.ident, args, final);
  }

  evalChainNode(dot: Val, chain: ChainNode, args: Node[], final: Final): Val {
    this.at(chain);
    if (chain.field.length === 0) this.errorf('internal error: no fields in evalChainNode');
    if (chain.node.kind === 'nil') this.errorf(`indirection through explicit nil in ${str(chain)}`);
    const pipe = this.evalArg(dot, 'value', chain.node);
    return this.evalFieldChain(dot, chain, pipe, false, chain.field, args, final);
  }

  evalVariableNode(dot: Val, v: VariableNode, args: Node[], final: Final): Val {
    this.at(v);
    const variable = this.lookupVar(v.ident[0]);
    if (v.ident.length === 1) {
      this.notAFunction(args, final);
      return variable.value;
    }
    return this.evalFieldChain(dot, v, variable.value, variable.iface ?? false, v.ident.slice(1), args, final);
  }

  /** `node` is the field, chain or variable node: Go reports a failing method call at it. */
  evalFieldChain(dot: Val, node: Node, receiver: Val, iface: boolean, ident: string[], args: Node[], final: Final): Val {
    const n = ident.length;
    for (let i = 0; i < n - 1; i++) {
      const from = receiver;
      receiver = this.evalField(dot, node, ident[i], [node], MISSING, receiver, iface);
      iface = from instanceof GoMap;
    }
    return this.evalField(dot, node, ident[n - 1], args, final, receiver, iface);
  }

  evalField(dot: Val, node: Node, fieldName: string, args: Node[], final: Final, receiver: Val, iface: boolean): Val {
    if (receiver === undefined) {
      if (this.o.missingKey === 'error') this.errorf(`nil data; no entry for key ${goQuote(fieldName)}`, { kind: 'nil-data' });
      return undefined;
    }
    const typ = iface ? 'interface {}' : typeString(receiver);
    if (receiver === null) this.errorf(`nil pointer evaluating ${typ}.${fieldName}`, { kind: 'nil-pointer' });
    const hasArgs = args.length > 1 || final !== MISSING;
    if (receiver instanceof GoMap || receiver instanceof GoStringMap) {
      if (hasArgs) this.errorf(`${fieldName} is not a method but has arguments`);
      if (receiver.has(fieldName)) return receiver.get(fieldName)!;
      switch (this.o.missingKey) {
        case 'invalid':
          return undefined;
        case 'zero':
          return receiver instanceof GoStringMap ? '' : null;
        case 'error':
          this.errorf(`map has no entry for key ${goQuote(fieldName)}`, { kind: 'missing-key' });
      }
    }
    if (receiver instanceof GoOther) {
      const member = receiver.member(fieldName);
      if (member && 'method' in member) return this.evalCall(dot, member.method, false, node, fieldName, args, final);
      if (member) {
        if (hasArgs) this.errorf(`${fieldName} has arguments but cannot be invoked as function`);
        return member.field;
      }
    }
    this.errorf(`can't evaluate field ${fieldName} in type ${typ}`, { kind: 'no-field', field: fieldName });
  }

  evalFunction(dot: Val, node: IdentifierNode, cmd: Node, args: Node[], final: Final): Val {
    this.at(node);
    const name = node.ident;
    const fn = this.o.funcs.get(name);
    if (fn) return this.evalCall(dot, fn, false, cmd, name, args, final);
    const b = this.o.builtins.get(name);
    if (!b) this.errorf(`${goQuote(name)} is not a defined function`);
    return this.evalCall(dot, b, true, cmd, name, args, final);
  }

  evalCall(dot: Val, fun: Builtin, isBuiltin: boolean, node: Node, name: string, argNodes: Node[], final: Final): Val {
    this.step();
    const args = argNodes.slice(1);
    let numIn = args.length;
    if (final !== MISSING) numIn++;
    // Signature: fixed parameter types and the variadic element type.
    let fixed: ('value' | GoParamType)[];
    let variadic: 'value' | GoParamType | undefined;
    if ('kind' in fun && fun.kind === 'special') {
      fixed = fun.name === 'call' ? ['value'] : ['value'];
      variadic = 'value';
    } else if ('kind' in fun && fun.kind === 'value') {
      fixed = valueParams((fun as ValueFunc).params);
      variadic = (fun as ValueFunc).variadic ? 'value' : undefined;
    } else {
      fixed = (fun as GoFunc).params;
      variadic = (fun as GoFunc).variadic;
    }
    const numFixed = variadic !== undefined ? fixed.length : args.length;
    if (variadic !== undefined) {
      if (numIn < fixed.length) this.errorf(`wrong number of args for ${name}: want at least ${fixed.length} got ${args.length}`);
    } else if (numIn !== fixed.length) {
      this.errorf(`wrong number of args for ${name}: want ${fixed.length} got ${numIn}`);
    }

    if (isBuiltin && 'kind' in fun && fun.kind === 'special' && (fun.name === 'and' || fun.name === 'or')) {
      let v: Val;
      for (const arg of args) {
        v = this.evalArg(dot, 'value', arg);
        if (truth(v === null ? undefined : v) === (fun.name === 'or')) return v;
      }
      if (final !== MISSING) v = final;
      return v;
    }

    const argv: Val[] = [];
    let i = 0;
    for (; i < numFixed && i < args.length; i++) argv.push(this.evalArg(dot, fixed[i], args[i]));
    if (variadic !== undefined) for (; i < args.length; i++) argv.push(this.evalArg(dot, variadic, args[i]));
    if (final !== MISSING) {
      let t: 'value' | GoParamType = variadic !== undefined ? variadic : fixed[fixed.length - 1];
      if (variadic !== undefined && numIn - 1 < numFixed) t = fixed[numIn - 1];
      argv.push(this.validateType(final, t));
    }

    if (isBuiltin && 'kind' in fun && fun.kind === 'special') {
      // call: params are data values here, never functions.
      // Go names the callee by its node, or by reflect.Value.String() of a piped value.
      const piped = final as Val;
      const callee = args.length > 0 ? str(args[0]) : typeof piped === 'string' ? piped : `<${typeString(piped)} Value>`;
      let fn = argv[0];
      if (fn === null) fn = undefined;
      this.at(node);
      if (fn === undefined) this.errorf(`error calling call: call of nil`);
      this.errorf(`error calling call: non-function ${callee} of type ${typeString(fn)}`);
    }

    let result: Val;
    const unitsBefore = charged.units;
    try {
      if ('kind' in fun && fun.kind === 'value') result = (fun as ValueFunc).impl(argv);
      else {
        const gf = fun as GoFunc;
        this.o.onCall?.(name, gf);
        result = gf.impl(...(argv as GoValue[]));
        if (result === undefined) result = null;
      }
      // Every string, list or map a function returns is charged for its size (budget.ts), so no
      // function can build past the value limit or the work budget unsaid.
      chargeResult(result, argv, unitsBefore);
    } catch (e) {
      if (e instanceof GoExecError || e instanceof BreakSignal || e instanceof ContinueSignal) throw e;
      this.at(node);
      const deep = isStackOverflow(e);
      const msg = deep ? TOO_DEEP_MESSAGE : e instanceof Error ? e.message : String(e);
      this.errorf(`error calling ${name}: ${msg}`, deep ? LIMIT : reasonOf(e));
    }
    return result;
  }

  validateType(value: Val, t: 'value' | GoParamType): Val {
    if (t === 'value') return value;
    if (value === undefined) {
      if (t === 'any') return null;
      if (t === 'list' || t === 'strings') return [];
      if (t === 'map') return new GoNilMap();
      this.errorf(`invalid value; expected ${paramTypeName(t)}`);
    }
    if (value === null) {
      if (t === 'any') return null;
      this.errorf(`wrong type for value; expected ${paramTypeName(t)}; got interface {}`);
    }
    if (!assignable(value, t)) this.errorf(`wrong type for value; expected ${paramTypeName(t)}; got ${typeString(value)}`);
    return value;
  }

  evalArg(dot: Val, t: 'value' | GoParamType, n: Node): Val {
    this.at(n);
    switch (n.kind) {
      case 'dot':
        return this.validateType(dot, t);
      case 'nil':
        if (t === 'value') return undefined;
        if (t === 'any') return null;
        if (t === 'list' || t === 'strings') return [];
        if (t === 'map') return new GoNilMap();
        this.errorf(`cannot assign nil to ${paramTypeName(t)}`);
      // falls through: errorf never returns
      case 'field':
        return this.validateType(this.evalFieldNode(dot, n, [n], MISSING), t);
      case 'variable':
        return this.validateType(this.evalVariableNode(dot, n, [], MISSING), t);
      case 'pipe':
        return this.validateType(this.evalPipeline(dot, n), t);
      case 'identifier':
        return this.validateType(this.evalFunction(dot, n, n, [], MISSING), t);
      case 'chain':
        return this.validateType(this.evalChainNode(dot, n, [], MISSING), t);
    }
    switch (t) {
      case 'bool':
        if (n.kind === 'bool') return n.val;
        this.errorf(`expected bool; found ${str(n)}`);
      // falls through: errorf never returns
      case 'float64':
        if (n.kind === 'number' && n.isFloat) return n.float64;
        this.errorf(`expected float; found ${str(n)}`);
      // falls through: errorf never returns
      case 'int':
      case 'int64':
        if (n.kind === 'number' && n.isInt) return t === 'int' ? n.int64 : new GoInt64(n.int64);
        this.errorf(`expected integer; found ${str(n)}`);
      // falls through: errorf never returns
      case 'string':
        if (n.kind === 'string') return n.text;
        this.errorf(`expected string; found ${str(n)}`);
      // falls through: errorf never returns
      case 'any':
      case 'value':
        return this.evalEmptyInterface(dot, n);
    }
    this.errorf(`can't handle ${str(n)} for arg of type ${paramTypeName(t)}`);
  }

  evalEmptyInterface(dot: Val, n: Node): Val {
    this.at(n);
    switch (n.kind) {
      case 'bool':
        return n.val;
      case 'number':
        return this.idealConstant(n);
      case 'string':
        return n.text;
    }
    this.errorf(`can't handle assignment of ${str(n)} to empty interface argument`);
  }

  printValue(n: Node, v: Val): void {
    this.at(n);
    this.write(formatValue(v === null ? undefined : v));
  }
}

function compareKeys(a: string, b: string): number {
  return Buffer.compare(utf8Bytes(a), utf8Bytes(b));
}

/** Executes tree `name` with `data` as dot; returns the output. Throws GoExecError. */
export function execute(o: ExecOptions, name: string, data: Val): string {
  const tree = o.trees.get(name);
  if (tree && data instanceof GoMap) {
    const out = executeFields(o, name, tree, data);
    if (out !== undefined) return out;
  }
  return walkTree(o, name, data, tree);
}

/** `execute` by the tree walk (a function of its own: its closure's context is not made when executeFields answers). */
function walkTree(o: ExecOptions, name: string, data: Val, tree: Tree | undefined): string {
  const s = new State(o, data, name);
  if (!tree) s.errorf(`${goQuote(name)} is an incomplete or empty template`);
  try {
    if (o.nested) s.walk(data, (tree as Tree).root as ListNode);
    else withWorkBudget(() => s.walk(data, (tree as Tree).root as ListNode));
  } catch (e) {
    if (e instanceof WorkLimitError) s.errorf(e.message, LIMIT); // printing a value outside a function call
    if (isStackOverflow(e)) s.errorf(`exceeded maximum template depth (${GO_MAX_EXEC_DEPTH})`);
    if (e === BREAK || e === CONTINUE) s.errorf('break or continue outside range');
    throw e;
  }
  return s.out.join('');
}

/**
 * The fields a template of text and `{{ .key }}` or `{{ .key.sub }}` actions only names, one per node of
 * its root (the field's keys; null for a text node); null for any other template (a pipeline, a function,
 * a variable, a chain, control flow). Kept per parsed tree (the parse cache keeps the trees).
 */
const fieldShapes = new WeakMap<Tree, (readonly string[] | null)[] | null>();

function fieldShape(tree: Tree): (readonly string[] | null)[] | null {
  let shape = fieldShapes.get(tree);
  if (shape !== undefined) return shape;
  shape = [];
  const root = tree.root as Node;
  if (root.kind !== 'list') shape = null;
  else
    for (const n of root.nodes) {
      if (n.kind === 'text') {
        shape.push(null);
        continue;
      }
      const cmd = n.kind === 'action' && !n.pipe.decl.length && n.pipe.cmds.length === 1 ? n.pipe.cmds[0] : undefined;
      const arg = cmd?.args.length === 1 ? cmd.args[0] : undefined;
      if (arg?.kind !== 'field') {
        shape = null;
        break;
      }
      shape.push(arg.ident);
    }
  fieldShapes.set(tree, shape);
  return shape;
}

/**
 * `execute` of a template of text and `{{ .key }}` (or `{{ .key.sub }}`) actions over a map whose named
 * fields all hold strings (`'{{ .service }}-{{ .env }}'`, most of an ApplicationSet's templates, and
 * `'{{ .values.service }}'` over a cluster generator's `values`): the texts and the strings
 * joined, with the work budget charged for each as `State.write` charges it, and a limit passed reported
 * at the same node. Undefined for anything else (a missing key, nil, another type, output over the
 * limit): `execute` walks the tree then. The walk's state, dispatch and formatting for every field of
 * every Application were a good part of an expansion of 540 Applications in a fresh process (issue 39).
 */
function executeFields(o: ExecOptions, name: string, tree: Tree, data: GoMap | PlainParams): string | undefined {
  const shape = fieldShape(tree);
  if (!shape) return undefined;
  const nodes = (tree.root as ListNode).nodes;
  let length = 0;
  for (let i = 0; i < shape.length; i++) {
    const key = shape[i];
    const v = key === null ? (nodes[i] as TextNode).text : fieldOf(data, key);
    if (typeof v !== 'string') return undefined;
    length += v.length;
  }
  if (length > execLimits.output) return undefined;
  if (o.nested) return joinFields(o, name, shape, nodes, data);
  // withWorkBudget without a closure per render (every string of every Application).
  const saved = freshWork();
  try {
    return joinFields(o, name, shape, nodes, data);
  } finally {
    restoreWork(saved);
  }
}

/** Parameters as the generators make them (JSON values), before they are Go values (`fromJSON`). */
export type PlainParams = Record<string, unknown>;

/**
 * The value down the keys of a field (`.values.service`) in the map `fromJSON(data)` would make, each
 * key found in a map: a Go map's entry, or a plain object's own enumerable property (what `fromJSON`
 * makes a map of). Undefined where a key is missing or a value on the way is not such a map (then the
 * walk answers: Go's missing-key option, a struct's member, an error). The first key is read as a field
 * of one key was before chains were read here: no type tests per field of every Application.
 */
function fieldOf(data: GoMap | PlainParams, ident: readonly string[]): unknown {
  let v: unknown = data instanceof GoMap ? data.get(ident[0]) : ownField(data, ident[0]);
  for (let i = 1; i < ident.length; i++) {
    if (typeof v !== 'object' || v === null) return undefined;
    // A plain or null-prototype object: no Map, list, date or other Go value (GoInt64, GoTime, GoOther).
    const proto = Object.getPrototypeOf(v) as unknown;
    if (proto === Object.prototype || proto === null) v = ownField(v as PlainParams, ident[i]);
    else if (v instanceof GoMap || v instanceof GoStringMap) v = v.get(ident[i]);
    else return undefined;
  }
  return v;
}

/** A plain object's own enumerable property (what `fromJSON` keeps of it). */
function ownField(o: PlainParams, key: string): unknown {
  return Object.prototype.propertyIsEnumerable.call(o, key) ? o[key] : undefined;
}

/**
 * `executeFields` over the parameters before they are Go values: the same output where it answers (a
 * template of text and `{{ .key }}` actions whose named keys all hold strings), else undefined (then the
 * caller makes the Go values and calls `execute`). An expansion's first Application of each parameter
 * set then needs no Go values when all its strings are such templates.
 */
export function executePlain(o: ExecOptions, name: string, data: PlainParams): string | undefined {
  const tree = o.trees.get(name);
  return tree && !(data instanceof Map) ? executeFields(o, name, tree, data) : undefined;
}

/** The texts and strings of `executeFields` joined, each charged as `State.write` charges it. */
function joinFields(o: ExecOptions, name: string, shape: (readonly string[] | null)[], nodes: Node[], data: GoMap | PlainParams): string {
  let out = '';
  for (let i = 0; i < shape.length; i++) {
    const key = shape[i];
    const v = (key === null ? (nodes[i] as TextNode).text : fieldOf(data, key)) as string;
    try {
      charge(0, v.length);
    } catch (e) {
      if (!(e instanceof WorkLimitError)) throw e;
      // Dot is not read by the error (its place and template only).
      const s = new State(o, data instanceof GoMap ? data : null, name);
      s.at(nodes[i]);
      s.errorf(e.message, LIMIT);
    }
    out += v;
  }
  return out;
}
