/**
 * The preview feature module: what the generators produce, shown where the user writes them.
 * - diagnostics: generator/render failures at the exact place (Argo CD's error text), Applications
 *   the controller would skip, params missing from some parameter sets, the in-cluster trap;
 * - code lenses over `generators:` and each top-level generator (`540 Applications · 12 clusters × 45 services`);
 * - hovers on a generator (its Applications) and on a template string (its value per Application);
 */
import type { AppSetContext, FeatureContributor } from '../context';
import type { CodeLens, EngineDiagnostic } from '../../types';
import { pathAt, type JsonPath } from '../../yaml';
import { fieldsOf } from '../../fields/appset';
import { sub, type Field } from '../../fields/place';
import { referencedParams } from '@appset-tools/gotemplate';
import { has, valueAt } from '../../generators/params';
import { isObj } from '../../objects';
import { destinationOf } from '../../expand/expand';
import { knownClusters } from '../../generators/inventory';
import { sedPlaceholder } from '../../kinds/scaffolding';
import { specTemplateDecides } from '../../expand/mergeTemplate';
import { generatorHoverContent } from './generatorHover';
import { childGeneratorHover, clusterSelectorHover } from './scopedHover';
import { valueSpan } from '../../expand/scalarOffsets';
import type { AppInvalidKind, Expansion, GeneratedApp } from '../../expand/types';
import { Commands } from '@appset-tools/protocol';
import { affectedOf, affectedText, groupBySite, LISTED_NAMES, relatedOf, type Occurrence } from '../../diagnostics/findings';
import { finding, type DiagnosticCode } from '../../diagnostics/codes';
import { emptySelectorFixes } from './emptySelectorFix';
import { cellText, fits, fittedTable, HOVER_ROWS, moreLine, sampleRows } from '../hoverTable';

export const previewContributor: FeatureContributor = {
  name: 'preview',

  diagnostics(ctx) {
    const exp = ctx.expansion();
    const total = exp.paramSets ?? exp.apps.length;
    const occ: Occurrence[] = [];
    for (const p of exp.problems) {
      // Structural mistakes are already explained by validation (appset/matrix-children, appset/merge-keys,
      // appset/child-generator-kinds, appset/nesting-depth); the controller's wording would only repeat them.
      if (p.structural) continue;
      // The problem is already a finding (made by `finding()` in expand/): only what grouping reads is kept.
      const { path: _path, structural: _structural, ...o } = p;
      occ.push(o);
    }
    // One finding per code and site, however many parameter sets meet it.
    const out = groupBySite(occ, total);
    out.push(...invalidApps(ctx, exp.apps, total));
    out.push(...missingParams(ctx, exp.apps));
    out.push(...inClusterTrap(ctx, exp.apps));
    return out;
  },

  codeActions: (ctx, _span, diagnostics) => emptySelectorFixes(ctx, diagnostics),

  codeLenses(ctx) {
    const exp = ctx.expansion();
    const view = fieldsOf(ctx.doc);
    // `generators` not written: the lens sits on the nearest key around it (`spec:`).
    const gensKey = view.generators.keyRange;
    if (!gensKey) return [];
    const lenses: CodeLens[] = [];
    const cmd = (offset: number) => ({ id: Commands.showPreview, title: 'Preview generated Applications', args: [ctx.file.uri, offset] });
    const n = exp.apps.length;
    const desc = exp.generators.map((g) => g.description).join(' + ');
    // What matters first (split editors cut lenses at about 40 characters): the count, whether it is
    // approximate, and for none the reason; the generators' description after.
    const count = `${n}${exp.capped ? '+' : ''} Application${n === 1 ? '' : 's'}${exp.exact ? '' : ' · approximate'}`;
    const title = n ? `${count}${desc ? ' · ' + desc : ''}` : `${count}${noneWhy(ctx, exp)}${desc ? ' · ' + desc : ''}`;
    lenses.push({
      span: gensKey,
      title,
      command: cmd(gensKey.start),
      tooltip: n ? title : noneTip(exp),
    });
    const entries = view.generatorList;
    if (entries.length > 1) {
      entries.forEach((entry, i) => {
        const span = entry.valueRange;
        if (!span) return;
        const count = exp.apps.filter((a) => a.generatorIndex === i).length;
        lenses.push({
          span: { start: span.start, end: span.start },
          title: `${count} Application${count === 1 ? '' : 's'}`,
          command: cmd(span.start),
        });
      });
    }
    return lenses;
  },

  hover(ctx, offset) {
    // The node-at-offset door: the fields around the cursor come with it (`trail`), none is looked up again.
    const cursor = pathAt(ctx.doc.doc, offset);
    const { path, trail } = cursor;
    const exp = ctx.expansion();
    if (path[0] !== 'spec') return undefined;
    const scoped = clusterSelectorHover(ctx, cursor) ?? childGeneratorHover(ctx, cursor);
    if (scoped) return scoped;
    const about = generatorHoverContent(path, exp);
    if (about) {
      // `about.path` is the part of the cursor's path the hover is about (the element, the selector, the entry).
      const whole = trail[about.path.length];
      const span = trail[path.length].key ?? whole.value ?? whole.key ?? ctx.doc.span;
      return { span, markdown: appsTable(about.title, about.apps, about.extra, exp.notes) };
    }
    if (path[1] === 'template' && path.length > 2) {
      const n = trail[path.length];
      const raw = valueAt(ctx.doc.value, path);
      if (typeof raw !== 'string' || !raw.includes('{{') || !n.value) return undefined;
      return { span: n.value, markdown: valuesTable(raw, path.slice(2), exp.apps) };
    }
    return undefined;
  },
};

/** A few words for the place an empty generator's finding is on (the lens is read within 40 characters). */
const EMPTY_WORDS: Record<string, (e: NonNullable<Expansion['empties']>[number]) => string> = {
  selector: (e) => (e.data ? 'its selector keeps none' : 'its selector matches no cluster'),
  directories: () => 'no directory matches',
  files: () => 'no file matches',
  elements: () => 'its list is empty',
};

/** Why no Application comes out, in a few words after the count: the first error, else the first empty generator. */
function noneWhy(ctx: AppSetContext, exp: Expansion): string {
  const error = exp.problems.find((p) => p.severity === 'error');
  if (error) return ` · ${error.code.startsWith('template/') ? 'every render fails' : 'the generators fail'} (${error.code})`;
  const empty = exp.empties?.find((e) => !e.covered) ?? exp.empties?.[0];
  if (empty) return ` · ${EMPTY_WORDS[String(empty.path[empty.path.length - 1])]?.(empty) ?? 'the generators yield nothing'}`;
  return ctx.doc.value.spec ? '' : ' · no spec';
}

/** The whole reason, for the lens's tooltip. */
function noneTip(exp: Expansion): string | undefined {
  const error = exp.problems.find((p) => p.severity === 'error');
  return error?.message ?? exp.empties?.[0]?.reason ?? exp.notes[0];
}

/** The Applications a generator part produces: data first, in a table narrow enough for a hover (features/hoverTable.ts). */
function appsTable(title: string, apps: GeneratedApp[], extra: string[], notes: string[]): string {
  // Across the clusters (destination server or name): each one's first Application, then the rest in order.
  const { shown, perGroup } = sampleRows(apps, (a) => destinationOf(a.app));
  // One column per label key (the value under the key's name is shorter than `key=value`), after the destination.
  const keys = [...new Set(shown.flatMap((a) => Object.keys(a.labels)))];
  const { table, left } = fittedTable([
    { head: 'Application', cells: shown.map((a) => nameCell(a) + (a.invalid ? ' ⚠' : '')) },
    { head: 'destination', cells: shown.map((a) => cellText(destinationOf(a.app), 40)) },
    ...keys.map((k) => ({ head: cellText(k, 24), cells: shown.map((a) => (has(a.labels, k) ? cellText(a.labels[k], 24) : '')) })),
  ]);
  const sampled = perGroup ? ' (one per cluster first)' : '';
  return [`**${title}**`, ...extra, table, footer(apps.length, shown.length, left, sampled), ...notes.map((n) => `_${n}_`)]
    .filter(Boolean)
    .join('\n\n');
}

/** A template string's value in each Application: a table when names and values fit side by side, else a list. */
function valuesTable(raw: string, rel: JsonPath, apps: GeneratedApp[]): string {
  const shown = apps.slice(0, HOVER_ROWS);
  const values = apps.map((a) => String(valueAt(a.app, rel) ?? '(absent)'));
  const distinct = new Set(values).size;
  const head = `**\`${cellText(raw, 60)}\`** in each Application (${distinct === 1 ? `one value in all ${apps.length}` : `${distinct} distinct values in ${apps.length}`})`;
  const columns = [
    { head: 'Application', cells: shown.map(nameCell) },
    { head: 'value', cells: shown.map((_, i) => '`' + cellText(values[i], 60) + '`') },
  ];
  // A long value wraps inside a narrow column: each pair on its own line reads better.
  const body = fits(columns)
    ? fittedTable(columns).table
    : shown.map((a, i) => `- ${nameCell(a)}: \`${cellText(values[i], 200)}\``).join('\n');
  return [head, body, footer(apps.length, shown.length, [])].filter(Boolean).join('\n\n');
}

/** What the hover leaves out, and where it is all shown. */
function footer(total: number, shown: number, left: string[], how = ''): string {
  const more = moreLine(total, shown, `Preview generated Applications shows all ${total}`, how);
  const cols = left.length ? `Left out to fit the hover: ${left.join(', ')} (the preview shows them).` : '';
  return [more, cols].filter(Boolean).join('\n\n');
}

/**
 * An Application's name as a link to where its parameter set came from (the first source); every source,
 * with its place, is the link's title. The places are not a column of their own: a hover is narrow.
 */
function nameCell(a: GeneratedApp): string {
  const name = '`' + cellText(a.name || '(no name)', 60) + '`';
  const first = a.sources?.find((s) => s.location?.file && s.where);
  if (!first?.location) return name;
  const line = /:(\d+)$/.exec(first.where ?? '')?.[1];
  const file = first.location.file;
  const uri = file.startsWith('/') ? 'file://' + encodeURI(file) : file;
  const title = (a.sources ?? [])
    .map((s) => (s.where ? `${s.label} (${s.where})` : s.label))
    .join(' + ')
    .replace(/["\\]/g, "'");
  return `[${name}](${uri}${line ? `#L${line}` : ''} "${title}")`;
}

/** The controller's validation problems, one finding per kind of problem and site (not per Application). */
function invalidApps(ctx: AppSetContext, apps: GeneratedApp[], total: number): EngineDiagnostic[] {
  const view = fieldsOf(ctx.doc);
  const kinds = new Map<AppInvalidKind, { code: DiagnosticCode; where: Field; apps: GeneratedApp[]; first: string }>();
  for (const a of apps) {
    for (const { kind, message } of a.invalid ?? []) {
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
function destinationFromRunTimeClusters(ctx: AppSetContext, apps: GeneratedApp[]): boolean {
  if (ctx.file.settings.inventoryFiles.length || knownClusters(ctx.file).declared) return false;
  // Only a name or server written as a template can come from the clusters: a destination written with
  // neither is missing whatever clusters exist.
  const written = fieldsOf(ctx.doc).templateDestination.value;
  const templated = (k: string) => isObj(written) && typeof written[k] === 'string' && (written[k] as string).includes('{{');
  if (!templated('server') && !templated('name')) return false;
  return apps.every((a) => (a.origins ?? []).some((o) => o.startsWith('cluster:')));
}

/** One message for a kind of validation problem: the controller's words, with every name involved. */
function invalidMessage(kind: AppInvalidKind, first: string, apps: GeneratedApp[]): string {
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

function missingParams(ctx: AppSetContext, apps: GeneratedApp[]): EngineDiagnostic[] {
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
function inClusterTrap(ctx: AppSetContext, apps: GeneratedApp[]): EngineDiagnostic[] {
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
