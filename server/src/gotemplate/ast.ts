/**
 * AST of a Go text/template (text/template/parse node.go). `pos`/`end` are UTF-16 offsets into the
 * template text; `str()` reproduces Go's Node.String(), which exec errors quote as `<NODE>`.
 */

import { goQuote } from './format';

export type Node =
  | ListNode
  | TextNode
  | ActionNode
  | PipeNode
  | CommandNode
  | IdentifierNode
  | VariableNode
  | DotNode
  | NilNode
  | FieldNode
  | ChainNode
  | BoolNode
  | NumberNode
  | StringNode
  | BranchNode
  | BreakNode
  | ContinueNode
  | TemplateNode
  | EndNode
  | ElseNode;

interface Base {
  /** Go's Pos (where errors point). For merged field chains this is the second field. */
  pos: number;
  /** Where the node's source text starts when it differs from `pos` (merged chains). */
  start?: number;
  end: number;
}

export interface ListNode extends Base {
  kind: 'list';
  nodes: Node[];
}
export interface TextNode extends Base {
  kind: 'text';
  text: string;
}
export interface ActionNode extends Base {
  kind: 'action';
  pipe: PipeNode;
}
export interface PipeNode extends Base {
  kind: 'pipe';
  isAssign: boolean;
  decl: VariableNode[];
  cmds: CommandNode[];
}
export interface CommandNode extends Base {
  kind: 'command';
  args: Node[];
}
export interface IdentifierNode extends Base {
  kind: 'identifier';
  ident: string;
}
export interface VariableNode extends Base {
  kind: 'variable';
  ident: string[];
}
export interface DotNode extends Base {
  kind: 'dot';
}
export interface NilNode extends Base {
  kind: 'nil';
}
export interface FieldNode extends Base {
  kind: 'field';
  ident: string[];
}
export interface ChainNode extends Base {
  kind: 'chain';
  node: Node;
  field: string[];
}
export interface BoolNode extends Base {
  kind: 'bool';
  val: boolean;
}
export interface NumberNode extends Base {
  kind: 'number';
  text: string;
  isInt: boolean;
  isUint: boolean;
  isFloat: boolean;
  isComplex: boolean;
  int64: bigint;
  uint64: bigint;
  float64: number;
  complex?: [number, number];
}
export interface StringNode extends Base {
  kind: 'string';
  quoted: string;
  text: string;
}
export interface BranchNode extends Base {
  kind: 'if' | 'range' | 'with';
  pipe: PipeNode;
  list: ListNode;
  elseList: ListNode | null;
}
export interface BreakNode extends Base {
  kind: 'break';
}
export interface ContinueNode extends Base {
  kind: 'continue';
}
export interface TemplateNode extends Base {
  kind: 'template';
  name: string;
  pipe: PipeNode | null;
}
export interface EndNode extends Base {
  kind: 'end';
}
export interface ElseNode extends Base {
  kind: 'else';
}

const L = '{{';
const R = '}}';

/** Go's Node.String(). */
export function str(n: Node): string {
  switch (n.kind) {
    case 'list':
      return n.nodes.map(str).join('');
    case 'text':
      return n.text;
    case 'action':
      return L + str(n.pipe) + R;
    case 'pipe': {
      let s = '';
      if (n.decl.length > 0) s = n.decl.map(str).join(', ') + (n.isAssign ? ' = ' : ' := ');
      return s + n.cmds.map(str).join(' | ');
    }
    case 'command':
      return n.args.map((a) => (a.kind === 'pipe' ? '(' + str(a) + ')' : str(a))).join(' ');
    case 'identifier':
      return n.ident;
    case 'variable':
      return n.ident.join('.');
    case 'dot':
      return '.';
    case 'nil':
      return 'nil';
    case 'field':
      return n.ident.map((i) => '.' + i).join('');
    case 'chain':
      return (n.node.kind === 'pipe' ? '(' + str(n.node) + ')' : str(n.node)) + n.field.map((f) => '.' + f).join('');
    case 'bool':
      return n.val ? 'true' : 'false';
    case 'number':
      return n.text;
    case 'string':
      return n.quoted;
    case 'if':
    case 'range':
    case 'with': {
      let s = L + n.kind + ' ' + str(n.pipe) + R + str(n.list);
      if (n.elseList) s += L + 'else' + R + str(n.elseList);
      return s + L + 'end' + R;
    }
    case 'break':
      return L + 'break' + R;
    case 'continue':
      return L + 'continue' + R;
    case 'template':
      return L + 'template ' + goQuote(n.name) + (n.pipe ? ' ' + str(n.pipe) : '') + R;
    case 'end':
      return L + 'end' + R;
    case 'else':
      return L + 'else' + R;
  }
}
