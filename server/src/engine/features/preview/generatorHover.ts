/**
 * Hover on a part of a generator: what exactly that part contributes.
 * - a list element → the Applications rendered from it;
 * - a cluster generator's selector → the clusters it selects and their Applications;
 * - a git `directories`/`files` entry → the paths the generator found, and their Applications;
 * - anywhere else in a generator → all the Applications of that top-level generator.
 * Provenance comes from `GeneratedApp.origins`, recorded by the generators.
 */
import type { JsonPath } from '../../yaml';
import type { Expansion, GeneratedApp } from '../../expand/types';

export interface GeneratorHoverContent {
  /** The path the hover is about (its span is what gets highlighted). */
  path: JsonPath;
  title: string;
  apps: GeneratedApp[];
  /** Extra markdown lines shown above the table. */
  extra: string[];
}

const MAX_LISTED = 20;

export function generatorHoverContent(path: JsonPath, exp: Expansion): GeneratorHoverContent | undefined {
  if (path[0] !== 'spec' || path[1] !== 'generators' || typeof path[2] !== 'number') return undefined;
  const gi = path[2];
  const ofGenerator = exp.apps.filter((a) => a.generatorIndex === gi);
  const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? '' : 's'}`;

  // The innermost list element on the path.
  for (let i = path.length - 1; i >= 4; i--) {
    if (typeof path[i] === 'number' && path[i - 1] === 'elements' && path[i - 2] === 'list') {
      const key = path.slice(0, i + 1).join('/');
      const apps = ofGenerator.filter((a) => a.origins?.includes(key));
      return { path: path.slice(0, i + 1), title: `This element produces ${plural(apps.length, 'Application')}`, apps, extra: [] };
    }
  }

  const selectorAt = path.findIndex((seg, i) => seg === 'selector' && path[i - 1] === 'clusters');
  if (selectorAt > 0) {
    const clusters = distinct(ofGenerator, 'cluster:');
    return {
      path: path.slice(0, selectorAt + 1),
      title: `This selector matches ${plural(clusters.length, 'cluster')}`,
      apps: ofGenerator,
      extra: clusters.length
        ? [`Clusters: ${listed(clusters)}`]
        : ['No cluster of the inventory matches (cluster Secrets and ClusterInventory files in the workspace).'],
    };
  }

  const gitAt = path.findIndex((seg, i) => (seg === 'files' || seg === 'directories') && path[i - 1] === 'git');
  if (gitAt > 0) {
    const found = distinct(ofGenerator, 'git:');
    const what = path[gitAt] === 'files' ? 'file' : 'directory';
    return {
      path: path.slice(0, gitAt + 1),
      title: `The git generator found ${found.length} ${found.length === 1 ? what : path[gitAt]}`,
      apps: ofGenerator,
      extra: found.length ? [`Found in the working tree: ${listed(found)}`] : [],
    };
  }

  // What the lens says of it (`12 clusters × 45 services`), in the heading: the table's first rows show one corner.
  const desc = exp.generators.find((g) => g.index === gi)?.description;
  return {
    path: path.slice(0, 3),
    title: `Generator ${gi + 1} produces ${plural(ofGenerator.length, 'Application')}${desc ? ` · ${desc}` : ''}`,
    apps: ofGenerator,
    extra: [],
  };
}

/** The first MAX_LISTED names as code, then how many more. */
function listed(names: string[]): string {
  const shown = names
    .slice(0, MAX_LISTED)
    .map((c) => `\`${c}\``)
    .join(', ');
  return names.length > MAX_LISTED ? `${shown} and ${names.length - MAX_LISTED} more` : shown;
}

function distinct(apps: GeneratedApp[], prefix: string): string[] {
  const out = new Set<string>();
  for (const a of apps) for (const o of a.origins ?? []) if (o.startsWith(prefix)) out.add(o.slice(prefix.length));
  return [...out].sort();
}
