/**
 * YAML 1.1 booleans. kubectl and Argo CD read manifests with YAML 1.1 rules (sigs.k8s.io/yaml), where
 * unquoted `yes`, `no`, `on`, `off`, `y`, `n` (any case) are booleans; this editor's parser follows
 * YAML 1.2, where they are strings. So an unquoted `yes` in a boolean field works but reads like a
 * string, and an unquoted `no` in a string field (a label value, a revision) becomes a boolean
 * that the API server rejects.
 */
import type { EngineDiagnostic } from '../../types';
import { astOf, pathOf, walk, type AstNode, type ScalarNode } from '../../yaml';
import type { AppSetDoc } from '../../kinds';
import { schemaAt } from '../schemaIndex';
import { finding } from '../../diagnostics/codes';

export const YAML11_BOOLEAN = /^(y|Y|yes|Yes|YES|n|N|no|No|NO|on|On|ON|off|Off|OFF)$/;
const TRUE_WORDS = /^(y|yes|on)$/i;
const MAX_NODES = 50_000;

/**
 * One of the words of YAML11_BOOLEAN (in any case) where a plain scalar can stand alone: after the
 * start, a space or line break, `[`, `{`, `,` or `:`, and before the end, a space or line break, `]`,
 * `}`, `,` or `:`. A document's text without a match holds no such scalar (a plain scalar of one word is
 * its own text), so its nodes need not be walked: one native search instead of a test of every scalar
 * (about 4,000 on the bench's 540-element list, code running for the first time in a fresh process).
 * Letters as classes, not the `i` flag: the same matches (without the `u` flag no other character folds
 * to an ASCII letter), in half the time over a 111 KiB text, searched again on every keystroke.
 */
const MAY_HOLD_YAML11_BOOLEAN = /(?:^|[\s[{,:])(?:[yYnN]|[yY][eE][sS]|[nN][oO]|[oO][nN]|[oO][fF][fF])(?=$|[\s\]},:])/;

/** Whether a document's text may hold a YAML 1.1 boolean as a plain scalar (see MAY_HOLD_YAML11_BOOLEAN). */
export function mayHoldYaml11Boolean(text: string): boolean {
  return MAY_HOLD_YAML11_BOOLEAN.test(text);
}

export function isYaml11BooleanScalar(node: AstNode | undefined): node is ScalarNode {
  return node?.kind === 'scalar' && node.style === 'plain' && typeof node.value === 'string' && YAML11_BOOLEAN.test(node.value);
}

/** `text` is the file's text (its nodes' spans are offsets in it). */
export function checkYaml11Booleans(doc: AppSetDoc, text: string): EngineDiagnostic[] {
  const out: EngineDiagnostic[] = [];
  // An argocd-apps entry's nodes lie in its values document, not in its own span: walked always.
  if (!doc.helmValues && !mayHoldYaml11Boolean(text.slice(doc.span.start, doc.span.end))) return out;
  let budget = MAX_NODES;
  walk(astOf(doc.doc), (node) => {
    if (--budget < 0) return false;
    if (!isYaml11BooleanScalar(node)) return;
    const schema = schemaAt(pathOf(node));
    if (!schema?.type) return; // free-form: no type to compare with
    const span = node.span;
    const word = String(node.value);
    const bool = TRUE_WORDS.test(word) ? 'true' : 'false';
    if (schema.type === 'boolean') {
      out.push(
        finding(
          'appset/yaml11-boolean',
          `"${word}" is a boolean only in YAML 1.1 (kubectl and Argo CD read it as ${bool}); write ${bool}`,
          span,
          { data: { replacement: bool } },
        ),
      );
    } else if (schema.type === 'string' || (Array.isArray(schema.type) && schema.type.includes('string'))) {
      out.push(
        finding(
          'appset/yaml11-boolean',
          `unquoted ${word} is read as the boolean ${bool} by kubectl and Argo CD (YAML 1.1), and this field needs a string; quote it: "${word}"`,
          span,
          {
            variant: true,
            data: { replacement: `"${word}"` },
          },
        ),
      );
    }
  });
  return out;
}
