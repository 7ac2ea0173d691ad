/**
 * The located fields of one ApplicationSet: its fields as the document's JSON has them, each with the place
 * it is written (`place.ts`), read once per document from the located tree (`yaml/ast.ts`). Checks,
 * findings, lenses and hovers take their spans from here — the value and where it stands travel
 * together — instead of looking a JSON path up after deciding.
 *
 * Built lazily and kept per document (`fieldsOf`), so validation, the rollout plan, the lenses and the
 * hovers of one analysis share one reading.
 */
import type { Json } from '../types';
import type { AppSetDoc } from '../kinds';
import { rootField, sub, type Field } from './place';
import { readStrategyAt, type StrategyFields } from './strategy';
import { readEntries, type GeneratorEntryFields } from './generatorFields';

export interface AppSetFields {
  /** The document (its root node). */
  root: Field;
  metadata: Field;
  /** `metadata.finalizers`. */
  finalizers: Field;
  spec: Field;
  generators: Field;
  /** One field per entry of `spec.generators` (none when it is not a list). */
  generatorList: Field[];
  /**
   * The entries of `spec.generators` read for the generator checks (kinds, selectors, git patterns,
   * matrix/merge children), with places; read on first use.
   */
  readonly generatorEntries: GeneratorEntryFields[];
  template: Field;
  /** `template.spec`. */
  templateSpec: Field;
  /** `template.metadata.name`. */
  templateName: Field;
  /** `template.spec.destination`. */
  templateDestination: Field;
  /** `template.spec.project`. */
  templateProject: Field;
  /** `template.spec.syncPolicy.automated`. */
  templateAutomated: Field;
  templatePatch: Field;
  /** `spec.syncPolicy` and its `applicationsSync`. */
  syncPolicy: Field;
  applicationsSync: Field;
  goTemplate: Field;
  goTemplateOptions: Field;
  ignoreApplicationDifferences: Field;
  /** `spec.strategy` read for the rollout (steps, matchExpressions, maxUpdate), with places. */
  strategy: StrategyFields;
}

const views = new WeakMap<AppSetDoc, AppSetFields>();

/** The located fields of an ApplicationSet document, read once per document. */
export function fieldsOf(doc: AppSetDoc): AppSetFields {
  let v = views.get(doc);
  if (!v) {
    v = readFields(doc);
    views.set(doc, v);
  }
  return v;
}

function readFields(doc: AppSetDoc): AppSetFields {
  const root = rootField(doc);
  const metadata = sub(root, 'metadata');
  const spec = sub(root, 'spec');
  const generators = sub(spec, 'generators');
  const template = sub(spec, 'template');
  const templateSpec = sub(template, 'spec');
  const syncPolicy = sub(spec, 'syncPolicy');
  let entries: GeneratorEntryFields[] | undefined;
  const generatorList = Array.isArray(generators.value) ? generators.value.map((_: Json, i: number) => sub(generators, i)) : [];
  return {
    root,
    metadata,
    finalizers: sub(metadata, 'finalizers'),
    spec,
    generators,
    generatorList,
    get generatorEntries() {
      return (entries ??= readEntries(generators, ['spec', 'generators'], 1, generatorList));
    },
    template,
    templateSpec,
    templateName: sub(sub(template, 'metadata'), 'name'),
    templateDestination: sub(templateSpec, 'destination'),
    templateProject: sub(templateSpec, 'project'),
    templateAutomated: sub(sub(templateSpec, 'syncPolicy'), 'automated'),
    templatePatch: sub(spec, 'templatePatch'),
    syncPolicy,
    applicationsSync: sub(syncPolicy, 'applicationsSync'),
    goTemplate: sub(spec, 'goTemplate'),
    goTemplateOptions: sub(spec, 'goTemplateOptions'),
    ignoreApplicationDifferences: sub(spec, 'ignoreApplicationDifferences'),
    strategy: readStrategyAt(root),
  };
}
