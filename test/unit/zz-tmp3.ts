import { readFileSync } from 'node:fs';
import { parseFile } from '../../server/src/engine/yaml/document';
const text = readFileSync('/tmp/i25a/big/secret.yaml', 'utf8');
let t = Date.now();
const f = parseFile(text);
console.log('parseFile', Date.now() - t, f.diagnostics.length);
