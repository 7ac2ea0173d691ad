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

export function isYaml11BooleanScalar(node: AstNode | undefined): node is ScalarNode {
  return node?.kind === 'scalar' && node.style === 'plain' && typeof node.value === 'string' && YAML11_BOOLEAN.test(node.value);
}

export function checkYaml11Booleans(doc: AppSetDoc): EngineDiagnostic[] {
  const out: EngineDiagnostic[] = [];
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
