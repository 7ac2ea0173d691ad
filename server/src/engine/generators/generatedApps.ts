/**
 * The rules of the `generator/` prefix that judge the generated Applications as a whole: the controller's
 * validation of each Application (`generator/invalid-application`, `generator/duplicate-name`), a
 * parameter the template reads that some parameter sets lack (`generator/missing-param`), and the
 * implicit in-cluster entry read for metadata (`generator/in-cluster-metadata`), and a literal destination
 * with neither name nor server, said when nothing renders offline (`literalDestination`). The Applications come
 * from the expansion, a floor above; the preview's contributor (features/preview/contributor.ts) hands
 * them over with the ApplicationSet's file and document (`GeneratedOf`, `GeneratedFacts`: the features'
 * context and the expansion's `GeneratedApp` have these shapes as they are). The codes, their words and
 * the decisions live here, in the prefix's home (codeLists/homes.ts).
 */
import type { EngineDiagnostic, Json, Source } from '../types';
import type { SourceText } from '../inputs';
import type { AppSetDoc } from '../kinds';
import { valueSpan, type JsonPath } from '../yaml';
import { fieldsOf } from '../fields/appset';
import { sub, type Field } from '../fields/place';
import { referencedParams } from '@appset-tools/gotemplate';
import { has } from './params';
import { isObj } from '../objects';
import { knownClusters } from './inventory';
import { sedPlaceholder } from '../kinds/scaffolding';
import { specTemplateDecides } from './mergeTemplate';
import { affectedOf, affectedText, LISTED_NAMES, relatedOf } from '../diagnostics/findings';
import { finding, type DiagnosticCode } from '../diagnostics/codes';
import type { AppInvalidKind } from './types';

/** The ApplicationSet the Applications were generated from: its file (with the settings) and its document. */
export interface GeneratedOf {
  file: SourceText;
  doc: AppSetDoc;
}

/** A generated Application as these rules read it (the expansion's `GeneratedApp` is one). */
export interface GeneratedFacts {
  app: { [key: string]: Json };
  name: string;
  generatorIndex: number;
  params: { [key: string]: unknown };
  invalid?: readonly { kind: AppInvalidKind; message: string }[];
  origins?: readonly string[];
  readonly sources?: Source[];
}

/** The controller's validation problems, one finding per kind of problem and site (not per Application). */
export function invalidApps(ctx: GeneratedOf, apps: GeneratedFacts[], total: number): EngineDiagnostic[] {
  const view = fieldsOf(ctx.doc);
  const kinds = new Map<AppInvalidKind, { code: DiagnosticCode; where: Field; apps: GeneratedFacts[]; first: string }>();
  for (let i = 0; i < apps.length; i++) {
    const a = apps[i];
    const invalid = a.invalid;
    if (!invalid) continue;
    for (let j = 0; j < invalid.length; j++) {
      const { kind, message } = invalid[j];
      // An unknown project is reported where the project is written (features/projects).
      if (kind === 'unknown-project') continue;
      const k = kinds.get(kind) ?? {
        code: kind === 'duplicate-name' ? 'generator/duplicate-name' : 'generator/invalid-application',
        where: kind.startsWith('destination') ? view.templateDestination : view.templateName,
        apps: [],
        first: message,
      };
      k.apps.push(a);
      kinds.set(kind, k);
    }
  }
  const out: EngineDiagnostic[] = [];
  for (const [kind, k] of kinds) {
    const span = k.where.exact ? k.where.span : view.template.keySpan;
    const skip = k.apps.length === 1 ? 'the controller skips this Application' : `the controller skips these ${k.apps.length} Applications`;
    const affected = affectedOf(k.apps, total);
    // The controller looks a destination name up among the cluster Secrets of the cluster it runs in
    // (util/argo ValidateDestination → db.GetClusterServersByName), which may be registered outside git
    // (argocd cluster add, Terraform): known only at run time, unless the user gave the inventory.
    const runTime = kind === 'destination-unknown' && !ctx.file.settings.inventoryFiles.length;
    const fromClusters = kind === 'destination-missing' && destinationFromRunTimeClusters(ctx, k.apps);
    // A sed/envsubst scaffold (kinds/scaffolding.ts): its upper-case placeholders are filled in before
    // anything applies it, so a name made invalid by them is not the name the controller will see.
    const sed = kind === 'bad-name' ? sedPlaceholder(ctx.doc) : undefined;
    const scaffolded = !!sed && k.apps.every((a) => /[A-Z]{2}/.test(a.name));
    const d: EngineDiagnostic = finding(
      k.code,
      `${invalidMessage(kind, k.first, k.apps)} — ${
        runTime
          ? `${skip} unless a cluster of that name is registered outside the repository (argocd cluster add, Terraform): no cluster Secret here registers it`
          : scaffolded
            ? `${skip} if the upper-case words are still there once the file is rendered: the ApplicationSet's own ${sed === ctx.doc.name ? 'name' : 'namespace'} ${sed} is no Kubernetes name either, so the file is a scaffold whose placeholders a sed or envsubst step fills in first`
            : fromClusters
              ? `${skip} unless the clusters registered in Argo CD give ${k.apps.length === 1 ? 'it' : 'them'} one: the destination is rendered from the cluster generator's parameters, and no cluster Secret here registers a cluster (they are added outside the repository, argocd cluster add or Terraform), so offline the generator sees only the in-cluster entry`
              : skip
      }`,
      span,
      { affected, variant: runTime || fromClusters || scaffolded },
    );
    const related = relatedOf(k.apps);
    if (related.length) d.related = related;
    out.push(d);
  }
  return out;
}

/**
 * A destination the template renders from the cluster generator's parameters (`{{server}}`, a range over
 * a flat list's `.clusters`), while the repository registers no cluster (no cluster Secret or inventory,
 * none given with inventoryFiles): offline the generator yields only the implicit in-cluster entry
 * (applicationset/generators/cluster.go), and the clusters it reads at run time are added outside git.
 * An empty destination then depends on values known only at run time: information, not an error (the
 * rule Argo CD's docs give values known only at run time). A destination whose name and server are not
 * written as templates is a mistake whatever the clusters are, and stays an error.
 */
function destinationFromRunTimeClusters(ctx: GeneratedOf, apps: GeneratedFacts[]): boolean {
  if (ctx.file.settings.inventoryFiles.length || knownClusters(ctx.file).declared) return false;
  // Only a name or server written as a template can come from the clusters: a destination written with
  // neither is missing whatever clusters exist.
  const written = fieldsOf(ctx.doc).templateDestination.value;
  const templated = (k: string) => isObj(written) && typeof written[k] === 'string' && (written[k] as string).includes('{{');
  if (!templated('server') && !templated('name')) return false;
  return apps.every((a) => (a.origins ?? []).some((o) => o.startsWith('cluster:')));
}

/** One message for a kind of validation problem: the controller's words, with every name involved. */
function invalidMessage(kind: AppInvalidKind, first: string, apps: GeneratedFacts[]): string {
  const list = (xs: string[], quote = true) => {
    const d = [...new Set(xs)];
    return (
      d
        .slice(0, LISTED_NAMES)
        .map((x) => (quote ? `"${x}"` : x))
        .join(', ') + (d.length > LISTED_NAMES ? `, and ${d.length - LISTED_NAMES} more` : '')
    );
  };
  switch (kind) {
    case 'duplicate-name':
      return `several parameter sets render the same Application name (${list(apps.map((a) => a.name))}): the ApplicationSet contains applications with duplicate names`;
    case 'bad-name':
      return `metadata.name renders names that are not lowercase RFC 1123 subdomains (${list(apps.map((a) => a.name))}): only lower case alphanumeric characters, '-' or '.', starting and ending with an alphanumeric character, are allowed`;
    case 'destination-unknown': {
      const names = apps.map((a) => (isObj(a.app.spec) && isObj(a.app.spec.destination) ? String(a.app.spec.destination.name ?? '') : ''));
      // The controller's own words (one name per Application), so they can be searched for.
      return `application destination spec is invalid: there are no clusters with this name: ${list(names, false)}`;
    }
    case 'destination-both':
      return "application destination spec is invalid: application destination can't have both name and server defined";
    default:
      return first;
  }
}

export function missingParams(ctx: GeneratedOf, apps: GeneratedFacts[]): EngineDiagnostic[] {
  const spec = isObj(ctx.doc.value.spec) ? (ctx.doc.value.spec as Record<string, unknown>) : {};
  if (!apps.length) return [];
  const goTemplate = spec.goTemplate === true;
  const opts = Array.isArray(spec.goTemplateOptions) ? spec.goTemplateOptions : [];
  if (goTemplate && opts.includes('missingkey=error')) return []; // render errors say it already
  const out: EngineDiagnostic[] = [];
  const seen = new Set<string>();
  const ownTemplates = (Array.isArray(spec.generators) ? spec.generators : []).map(generatorTemplateOf);
  const visit = (at: Field, path: JsonPath) => {
    const v = at.value;
    if (typeof v === 'string') {
      if (!v.includes('{{')) return;
      for (const ref of referencedParams(v, goTemplate)) {
        // A guarded reference (`default`, `if`, `with`, `hasKey`, …) renders its fallback, as the preview shows.
        if (!ref.path.length || ref.guarded) continue;
        // A generator's own template that sets this field replaces the spec's text for its Applications
        // (generator_spec_processor.go mergeGeneratorTemplate): the reference is never rendered for them.
        const lacking = apps.filter(
          (a) => specTemplateDecides(ownTemplates[a.generatorIndex], path.slice(2)) && !hasParam(a.params, ref.path, goTemplate),
        );
        if (!lacking.length) continue;
        const name = goTemplate ? '.' + ref.path.join('.') : ref.path[0];
        const key = name + '@' + path.join('/');
        if (seen.has(key)) continue;
        seen.add(key);
        const whole = at.span;
        const span = (at.valueRange && valueSpan(ctx.file.text, at.valueRange, v, ref.offset, ref.length)) || whole;
        const effect = goTemplate ? 'renders <no value>' : `stays "{{${ref.path[0]}}}"`;
        const affected = affectedOf(lacking, apps.length);
        const d: EngineDiagnostic = finding(
          'generator/missing-param',
          `${name} ${effect} where it is missing — ${affectedText(affected)}`,
          span,
          { affected },
        );
        const related = relatedOf(lacking);
        if (related.length) d.related = related;
        out.push(d);
      }
    } else if (Array.isArray(v)) v.forEach((_, i) => visit(sub(at, i), [...path, i]));
    else if (isObj(v)) for (const k of Object.keys(v)) visit(sub(at, k), [...path, k]);
  };
  if (isObj(ctx.doc.value.spec)) visit(fieldsOf(ctx.doc).template, ['spec', 'template']);
  return out;
}

/** The `template` a top-level generator entry sets under its kind (`list.template`, `git.template`, …), if any. */
function generatorTemplateOf(entry: unknown): unknown {
  if (!isObj(entry)) return undefined;
  for (const k of Object.keys(entry)) {
    const g = entry[k];
    if (k !== 'selector' && isObj(g) && g.template !== undefined) return g.template;
  }
  return undefined;
}

/** A cluster generator without selector adds an in-cluster entry that has no metadata. */
export function inClusterTrap(ctx: GeneratedOf, apps: GeneratedFacts[]): EngineDiagnostic[] {
  const spec = isObj(ctx.doc.value.spec) ? (ctx.doc.value.spec as Record<string, unknown>) : {};
  if (spec.goTemplate !== true) return [];
  const inCluster = apps.find((a) => a.params.name === 'in-cluster' && !has(a.params, 'metadata'));
  if (!inCluster) return [];
  const tmpl = JSON.stringify(spec.template ?? {});
  if (!/\.metadata\b/.test(tmpl)) return [];
  return [
    finding(
      'generator/in-cluster-metadata',
      'the cluster generator has no selector, so it adds the implicit in-cluster entry, which has no metadata: .metadata lookups print <no value> or fail for it (add a selector, or guard with {{ if .metadata }})',
      fieldsOf(ctx.doc).template.keySpan,
    ),
  ];
}

function hasParam(params: Record<string, unknown>, path: string[], goTemplate: boolean): boolean {
  if (!goTemplate) return has(params, path[0]);
  let cur: unknown = params;
  for (const seg of path) {
    if (Array.isArray(cur) && /^\d+$/.test(seg)) cur = cur[Number(seg)];
    else if (isObj(cur) && has(cur, seg)) cur = cur[seg];
    else return false;
  }
  return cur !== undefined;
}

/** A literal destination with neither name nor server fails every Application (checked only when nothing rendered). */
export function literalDestination(ctx: Pick<GeneratedOf, 'doc'>, spec: Record<string, unknown>): EngineDiagnostic[] {
  const t = isObj(spec.template) && isObj(spec.template.spec) ? spec.template.spec : undefined;
  if (!t || !isObj(t.destination) || spec.templatePatch !== undefined) return [];
  const d = t.destination;
  const name = typeof d.name === 'string' ? d.name : '';
  const server = typeof d.server === 'string' ? d.server : '';
  if (name || server) return [];
  return [
    finding(
      'generator/invalid-application',
      'application destination spec is invalid: Destination server missing from app spec — the destination has neither name nor server, so the controller skips every Application this ApplicationSet generates',
      fieldsOf(ctx.doc).templateDestination.keySpan,
    ),
  ];
}
