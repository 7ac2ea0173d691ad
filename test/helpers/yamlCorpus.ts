/**
 * The YAML files the parsing tests read both ways (the fast reader, the library in steps, the
 * library in one call): every `.yaml`/`.yml` file of this repository's tests and examples and of
 * ../shared (Argo CD's examples and CRDs, the golden corpus).
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The YAML files under `dir` (node_modules and dot folders left out; files over 2 MB too). */
export function yamlFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const p = join(dir, name);
    const st = statSync(p);
    if (st.isDirectory()) yamlFiles(p, out);
    else if (/\.ya?ml$/.test(name) && st.size < 2_000_000) out.push(p);
  }
  return out;
}

/**
 * The YAML files of the repository's tests and examples, and of ../shared when it is there (a clone of
 * the public repository has no ../shared: the repository's own files are then the whole corpus).
 */
export function repositoryYaml(): string[] {
  const root = resolve(__dirname, '..', '..');
  const shared = resolve(root, '..', 'shared');
  return [...yamlFiles(join(root, 'test')), ...yamlFiles(join(root, 'examples')), ...(existsSync(shared) ? yamlFiles(shared) : [])];
}
