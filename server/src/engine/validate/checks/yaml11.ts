/**
 * YAML 1.1 booleans. kubectl and Argo CD read manifests with YAML 1.1 rules (sigs.k8s.io/yaml), where
 * unquoted `yes`, `no`, `on`, `off`, `y`, `n` (any case) are booleans; this editor's parser follows
 * YAML 1.2, where they are strings. So an unquoted `yes` in a boolean field works but reads like a
 * string, and an unquoted `no` in a string field (a label value, a revision) becomes a boolean
 * that the API server rejects.
 */
import * as YAML from 'yaml';
import type { EngineDiagnostic } from '../../types';
import type { AppSetDoc, JsonPath } from '../../yaml/document';
import { schemaAt } from '../schemaIndex';
import { diag } from './util';

export const YAML11_BOOLEAN = /^(y|Y|yes|Yes|YES|n|N|no|No|NO|on|On|ON|off|Off|OFF)$/;
const TRUE_WORDS = /^(y|yes|on)$/i;
const MAX_NODES = 50_000;

export function isYaml11BooleanScalar(node: unknown): node is YAML.Scalar {
  return YAML.isScalar(node) && node.type === 'PLAIN' && typeof node.value === 'string' && YAML11_BOOLEAN.test(node.value);
}

export function checkYaml11Booleans(doc: AppSetDoc): EngineDiagnostic[] {
  const out: EngineDiagnostic[] = [];
  let budget = MAX_NODES;
  const visit = (node: unknown, path: JsonPath) => {
    if (--budget < 0) return;
    if (YAML.isMap(node)) {
      for (const p of node.items) {
        const k = YAML.isScalar(p.key) ? String(p.key.value) : undefined;
        if (k !== undefined) visit(p.value, [...path, k]);
      }
    } else if (YAML.isSeq(node)) {
      node.items.forEach((it, i) => visit(it, [...path, i]));
    } else if (isYaml11BooleanScalar(node) && node.range) {
      const schema = schemaAt(path);
      if (!schema?.type) return; // free-form: no type to compare with
      const span = { start: node.range[0], end: node.range[1] };
      const word = String(node.value);
      const bool = TRUE_WORDS.test(word) ? 'true' : 'false';
      if (schema.type === 'boolean') {
        out.push(diag('appset/yaml11-boolean', `"${word}" is a boolean only in YAML 1.1 (kubectl and Argo CD read it as ${bool}); write ${bool}`, span, { data: { replacement: bool } }));
      } else if (schema.type === 'string' || (Array.isArray(schema.type) && schema.type.includes('string'))) {
        out.push(
          diag('appset/yaml11-boolean', `unquoted ${word} is read as the boolean ${bool} by kubectl and Argo CD (YAML 1.1), and this field needs a string; quote it: "${word}"`, span, {
            severity: 'error',
            data: { replacement: `"${word}"` },
          }),
        );
      }
    }
  };
  visit(doc.doc.contents, []);
  return out;
}
