/**
 * `spec.template.spec.project` against the AppProjects the repository defines (projects.ts). The
 * controller skips every generated Application whose project does not exist (argo-cd
 * `applicationset/controllers/applicationset_controller.go` `validateGeneratedApplications`). A literal
 * project is checked even when nothing renders offline; a templated one per generated Application
 * (`'{{ .metadata.labels.team }}'` → `team-a`, `team-b`), one finding per project value, on the
 * place it is written, with the Applications it affects. Then what each project permits
 * (projectPermissions.ts). The `appset/` prefix's home holds these rules; the generated Applications
 * come through `ProjectsOf` from the floor above (features/projects/contributor.ts).
 */
import type { EngineDiagnostic, Json, Span } from '../types';
import { fieldsOf } from '../fields/appset';
import { subPath } from '../fields/place';
import { isObj } from '../objects';
import { knownProjects, type ProjectApp, type ProjectsOf } from './projects';
import { finding } from '../diagnostics/codes';
import { suggest } from '../didYouMean';
import { affectedOf, affectedText, relatedOf } from '../diagnostics/findings';
import { notChecked, permissionFindings } from './projectPermissions';

const LISTED_PROJECTS = 8;

/** The findings of the project rules for one ApplicationSet: unknown projects, denials, and what is not checked. */
export function projectFindings(ctx: ProjectsOf): EngineDiagnostic[] {
  if (ctx.doc.partial) return [];
  const index = knownProjects(ctx.file);
  if (index.uncertain) return notChecked(ctx, index);
  const spec = isObj(ctx.doc.value.spec) ? ctx.doc.value.spec : {};
  const tspec = isObj(spec.template) && isObj(spec.template.spec) ? spec.template.spec : {};
  const raw: Json | undefined = tspec.project;
  const view = fieldsOf(ctx.doc);
  const project = view.templateProject;
  const span = project.exact && project.valueRange ? project.valueRange : view.template.keySpan;
  const known = [...index.projects.keys()].sort();
  const exp = ctx.expansion();
  // A generator's own template that sets a project overrides the main template's for the
  // Applications it generates (applicationset/controllers: the generator's template is merged over
  // spec.template, non-empty fields winning): the finding belongs on that line.
  const overrides = new Map<number, { raw: string; span: Span }>();
  (Array.isArray(spec.generators) ? spec.generators : []).forEach((g, i) => {
    if (!isObj(g)) return;
    for (const kind of Object.keys(g)) {
      const t = isObj(g[kind]) ? (g[kind] as Record<string, Json>).template : undefined;
      const p = isObj(t) && isObj(t.spec) ? t.spec.project : undefined;
      if (typeof p !== 'string' || !p) continue;
      const at = subPath(view.generatorList[i], [kind, 'template', 'spec', 'project']);
      if (at.exact && at.valueRange) overrides.set(i, { raw: p, span: at.valueRange });
    }
  });
  const byProject = new Map<string, { apps: ProjectApp[]; span: Span; raw: Json | undefined }>();
  for (const a of exp.apps) {
    const p = isObj(a.app.spec) ? a.app.spec.project : undefined;
    // An empty project is the default project (argo-cd util/argo NormalizeApplicationSpec).
    if (typeof p !== 'string' || !p || index.projects.has(p)) continue;
    const own = overrides.get(a.generatorIndex);
    const key = `${p}\u0000${own ? a.generatorIndex : -1}`;
    const entry = byProject.get(key) ?? { apps: [], span: own?.span ?? span, raw: own ? own.raw : raw };
    entry.apps.push(a);
    byProject.set(key, entry);
  }
  const out: EngineDiagnostic[] = [];
  const total = exp.paramSets ?? exp.apps.length;
  for (const [key, { apps, span: at, raw: written }] of byProject) {
    const project = key.slice(0, key.indexOf('\u0000'));
    const affected = affectedOf(apps, total);
    const skip = apps.length === 1 ? 'the controller skips this Application' : `the controller skips these ${apps.length} Applications`;
    const literal = typeof written === 'string' && !written.includes('{{');
    const d = unknownProject(project, literal ? known : [], at, skip, ` — ${affectedText(affected)}`, known);
    d.affected = affected;
    const related = relatedOf(apps);
    if (related.length) d.related = related;
    out.push(d);
  }
  // Nothing rendered offline (no cluster Secret, no checkout): a literal project is still certain.
  if (!exp.apps.length && typeof raw === 'string' && raw && !raw.includes('{{') && !index.projects.has(raw))
    out.push(unknownProject(raw, known, span, 'the controller skips every Application this ApplicationSet generates'));
  out.push(...permissionFindings(ctx, index), ...notChecked(ctx, index));
  return out;
}

function unknownProject(
  project: string,
  candidates: string[],
  span: { start: number; end: number },
  consequence: string,
  tail = '',
  known = candidates,
): EngineDiagnostic {
  // A near miss is suggested only for a literal project (a templated one is fixed in its data).
  const hint = suggest(project, candidates);
  const listed =
    known.slice(0, LISTED_PROJECTS).join(', ') + (known.length > LISTED_PROJECTS ? `, and ${known.length - LISTED_PROJECTS} more` : '');
  return finding(
    'appset/unknown-project',
    `${consequence}: project "${project}" is not defined by any AppProject in the repository (application references project ${project} which does not exist)${hint ? `; did you mean "${hint}"?` : ''} (AppProjects found: ${listed})${tail}`,
    span,
    hint ? { data: { replacement: hint } } : {},
  );
}
