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
  readonly root: Field;
  readonly metadata: Field;
  /** `metadata.finalizers`. */
  readonly finalizers: Field;
  readonly spec: Field;
  readonly generators: Field;
  /** One field per entry of `spec.generators` (none when it is not a list). */
  readonly generatorList: Field[];
  /**
   * The entries of `spec.generators` read for the generator checks (kinds, selectors, git patterns,
   * matrix/merge children), with places; read on first use.
   */
  readonly generatorEntries: GeneratorEntryFields[];
  readonly template: Field;
  /** `template.spec`. */
  readonly templateSpec: Field;
  /** `template.metadata.name`. */
  readonly templateName: Field;
  /** `template.spec.destination`. */
  readonly templateDestination: Field;
  /** `template.spec.project`. */
  readonly templateProject: Field;
  /** `template.spec.syncPolicy.automated`. */
  readonly templateAutomated: Field;
  readonly templatePatch: Field;
  /** `spec.syncPolicy` and its `applicationsSync`. */
  readonly syncPolicy: Field;
  readonly applicationsSync: Field;
  readonly goTemplate: Field;
  readonly goTemplateOptions: Field;
  readonly ignoreApplicationDifferences: Field;
  /** `spec.strategy` read for the rollout (steps, matchExpressions, maxUpdate), with places. */
  readonly strategy: StrategyFields;
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
  // Each field is placed on first use and kept: most ApplicationSets are asked of a few of them (an
  // absent field's place is an object of its own), and every ApplicationSet of a file read them all (issue 39).
  let metadata: Field | undefined;
  let finalizers: Field | undefined;
  let spec: Field | undefined;
  let generators: Field | undefined;
  let generatorList: Field[] | undefined;
  let entries: GeneratorEntryFields[] | undefined;
  let template: Field | undefined;
  let templateSpec: Field | undefined;
  let templateName: Field | undefined;
  let templateDestination: Field | undefined;
  let templateProject: Field | undefined;
  let templateAutomated: Field | undefined;
  let templatePatch: Field | undefined;
  let syncPolicy: Field | undefined;
  let applicationsSync: Field | undefined;
  let goTemplate: Field | undefined;
  let goTemplateOptions: Field | undefined;
  let ignoreApplicationDifferences: Field | undefined;
  let strategy: StrategyFields | undefined;
  return {
    root,
    get metadata() {
      return (metadata ??= sub(root, 'metadata'));
    },
    get finalizers() {
      return (finalizers ??= sub(this.metadata, 'finalizers'));
    },
    get spec() {
      return (spec ??= sub(root, 'spec'));
    },
    get generators() {
      return (generators ??= sub(this.spec, 'generators'));
    },
    get generatorList() {
      if (!generatorList) {
        const g = this.generators;
        generatorList = Array.isArray(g.value) ? g.value.map((_: Json, i: number) => sub(g, i)) : [];
      }
      return generatorList;
    },
    get generatorEntries() {
      return (entries ??= readEntries(this.generators, ['spec', 'generators'], 1));
    },
    get template() {
      return (template ??= sub(this.spec, 'template'));
    },
    get templateSpec() {
      return (templateSpec ??= sub(this.template, 'spec'));
    },
    get templateName() {
      return (templateName ??= sub(sub(this.template, 'metadata'), 'name'));
    },
    get templateDestination() {
      return (templateDestination ??= sub(this.templateSpec, 'destination'));
    },
    get templateProject() {
      return (templateProject ??= sub(this.templateSpec, 'project'));
    },
    get templateAutomated() {
      return (templateAutomated ??= sub(sub(this.templateSpec, 'syncPolicy'), 'automated'));
    },
    get templatePatch() {
      return (templatePatch ??= sub(this.spec, 'templatePatch'));
    },
    get syncPolicy() {
      return (syncPolicy ??= sub(this.spec, 'syncPolicy'));
    },
    get applicationsSync() {
      return (applicationsSync ??= sub(this.syncPolicy, 'applicationsSync'));
    },
    get goTemplate() {
      return (goTemplate ??= sub(this.spec, 'goTemplate'));
    },
    get goTemplateOptions() {
      return (goTemplateOptions ??= sub(this.spec, 'goTemplateOptions'));
    },
    get ignoreApplicationDifferences() {
      return (ignoreApplicationDifferences ??= sub(this.spec, 'ignoreApplicationDifferences'));
    },
    get strategy() {
      return (strategy ??= readStrategyAt(root));
    },
  };
}
