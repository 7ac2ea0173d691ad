/**
 * Lint acts on the settings of the ApplicationSet controller that runs an ApplicationSet, read from the
 * install model (install/controller.ts, which cites the upstream rules): the namespaces it watches, SCM
 * provider switches and allow-lists, and its applications sync policy. Each finding sits on the field
 * of the ApplicationSet the setting acts on and names where the setting is written.
 */
import type { AppSetContext } from '../context';
import type { EngineDiagnostic, Json, Span } from '../../types';
import { fieldsOf } from '../../fields/appset';
import { sub } from '../../fields/place';
import type { GeneratorEntryFields } from '../../fields/generatorFields';
import { finding, type DiagnosticCode } from '../../diagnostics/codes';
import { controllerFor, POLICIES, settingBool, settingList, type ControllerSettings } from '../../install/controller';
import { flagBool } from '../../install/argoEnv';
import { applicationNamespaces, outsideArgoCD } from '../../install/outside';
import { namespaceWatched } from '../../install/instances';
import { applicationsSyncPolicy } from '../policy/syncPolicy';
import { ARGOCD_CONFIG } from '../../workspace/interests';
import { isObj } from '../../objects';
import { argoCdNamed } from '../../install/names';

type Obj = { [key: string]: Json };

/** What each applications sync policy lets the controller do (applicationset/utils/policy.go). */
export const POLICY_EFFECT: Record<string, string> = {
  sync: 'creates, updates and deletes Applications',
  'create-only': 'creates Applications but never updates or deletes them',
  'create-update': 'creates and updates Applications but never deletes them',
  'create-delete': 'creates and deletes Applications but never updates them',
};

/** Provider blocks whose `api` is the custom API URL ScmProviderAllowed checks (CustomApiUrl in applicationset_types.go). */
const SCM_APIS: Record<'scmProvider' | 'pullRequest', string[]> = {
  scmProvider: ['github', 'gitlab', 'gitea', 'bitbucketServer', 'azureDevOps'],
  pullRequest: ['github', 'gitlab', 'gitea', 'bitbucketServer', 'bitbucket', 'azureDevOps'],
};

/**
 * Every generator, top level and nested in matrix/merge (two levels, as Argo CD nests them), the first
 * 100 of each list, from the located entries (each with its place).
 */
function generators(entries: readonly GeneratorEntryFields[]): { g: Obj; entry: GeneratorEntryFields }[] {
  const out: { g: Obj; entry: GeneratorEntryFields }[] = [];
  const walk = (list: readonly GeneratorEntryFields[]) => {
    for (const entry of list.slice(0, 100)) {
      const g = entry.at.value;
      if (!isObj(g)) continue;
      out.push({ g, entry });
      for (const c of entry.combined) walk(c.children);
    }
  };
  walk(entries);
  return out;
}

export function controllerDiagnostics(ctx: AppSetContext): EngineDiagnostic[] {
  const out: EngineDiagnostic[] = [];
  // The language server's first answer does not read the workspace: what the controller does is said
  // once the installs are read (the index then asks for a re-validation), never taken back.
  if (ctx.file.workspace.holdClaims(ARGOCD_CONFIG)) return out;
  const fields = fieldsOf(ctx.doc);
  const v = ctx.doc.value;
  const ns = ctx.doc.namespace || undefined;
  const view = controllerFor(ctx.file, ns);
  const push = (code: DiagnosticCode, message: string, span: Span) => out.push(finding(code, message, span));

  // Namespaces: the repository's installs were found, none processes ApplicationSets in this namespace.
  const choice = view.gov.choice;
  // Applications kept in that namespace show an Argo CD installed outside the repository runs there
  // (install/outside.ts): it processes the ApplicationSets of its own namespace, so nothing is said.
  const roots = ctx.file.host.roots();
  const outside = ns && !view.gov.mapping && !view.gov.installs.length ? outsideArgoCD(view.model.scan, ns, roots) : undefined;
  if (ns && !outside && !view.gov.mapping && !view.gov.installs.length && choice?.otherNamespace.length) {
    const which = choice.otherNamespace
      .slice(0, 3)
      .map(
        (i) =>
          `${i.name === '.' ? argoCdNamed(i.name) : i.name} processes those in ${[...new Set([i.namespace, ...i.watched].filter(Boolean))].join(', ')}`,
      )
      .join('; ');
    push(
      'controller/namespace-not-watched',
      `Ignored: no Argo CD of this repository processes ApplicationSets in namespace ${ns} (${which}), so unless an Argo CD installed outside this repository runs in namespace ${ns}, this one generates no Applications. Add ${ns} to applicationsetcontroller.namespaces of the install (and to its AppProject's sourceNamespaces), or move the ApplicationSet to the install's namespace.`,
      sub(fields.metadata, 'namespace').span,
    );
  }
  if (!view.gov.installs.length && !view.gov.mapping) return out;
  // Settings past the install model's bound are not known: no finding could be vouched for.
  if (view.gov.installs.some((i) => view.model.scan.settingsTruncated.includes(i.key))) return out;

  // An ApplicationSet outside Argo CD's namespace creates its Applications in its own namespace; the
  // application controller and the API server only handle Applications there when application.namespaces
  // enables it (util/security/application_namespaces.go IsNamespaceEnabled; Appset-Any-Namespace.md).
  const inst = view.gov.installs.length === 1 ? view.gov.installs[0] : undefined;
  if (ns && inst?.namespace && ns !== inst.namespace && !namespaceWatched(applicationNamespaces(view.model.scan, inst), inst.namespace, ns))
    push(
      'controller/application-namespace-not-enabled',
      `The Applications this ApplicationSet creates in namespace ${ns} are never reconciled: ${view.name} runs in namespace ${inst.namespace}, and ${ns} is not in its application.namespaces (argocd-cmd-params-cm), so the application controller and the API server ignore Applications there. Add ${ns} to application.namespaces (and to the AppProject's sourceNamespaces).`,
      sub(fields.metadata, 'namespace').span,
    );

  startFindings(view, push, sub(fields.root, 'kind').span);
  scmFindings(ctx, view, push);

  // Applications sync policy: the ApplicationSet's own only counts when the controller allows it
  // (the one rule, rules/applicationsSync.ts, as features/policy/syncPolicy.ts applies it).
  const sp = isObj(v.spec) && isObj(v.spec.syncPolicy) ? v.spec.syncPolicy : undefined;
  const written = typeof sp?.applicationsSync === 'string' ? sp.applicationsSync : undefined;
  const applied = applicationsSyncPolicy(ctx);
  if (written && POLICIES.includes(written as (typeof POLICIES)[number]) && written !== applied.policy)
    push(
      'controller/policy-not-applied',
      `applicationsSync: ${written} is not applied: ${applied.why.replace(/ applies: applicationsSync: \S+ is ignored because /, ' applies, because ')} — so the controller ${POLICY_EFFECT[applied.policy] ?? 'applies its own policy'}.`,
      fields.applicationsSync.span,
    );
  return out;
}

type Push = (code: DiagnosticCode, message: string, span: Span) => void;

/** A value as written, quoted; a file's trailing newline shown escaped (`"create-only\n"`). */
const shown = (v: string) => (/[\n\r\t]/.test(v) ? JSON.stringify(v) : `"${v}"`);

/**
 * Settings that stop the controller (Argo CD v3.5.1 cmd/argocd-applicationset-controller/commands/
 * applicationset_controller.go): said once per ApplicationSet, at its kind. Values are compared as the
 * controller reads them (install/argoEnv.ts): `create-only` followed by a newline is not a policy.
 */
function startFindings(view: ControllerSettings, push: Push, kindAt: Span) {
  const policy = view.get('policy');
  // utils.Policies holds the four policies and "" (sync); any other value: os.Exit(1).
  if (policy && policy.value !== '' && !POLICIES.includes(policy.value as (typeof POLICIES)[number]))
    push(
      'controller/does-not-start',
      `The ApplicationSet controller of ${view.name} does not start: applicationsetcontroller.policy is ${shown(policy.value)} (${policy.where}), and only sync, create-only, create-update and create-delete are accepted — nothing is generated for any ApplicationSet.`,
      kindAt,
    );
  // A bool flag whose `=value` strconv.ParseBool refuses: pflag fails and the controller exits.
  for (const name of ['scmProviders', 'policyOverride', 'newGitFileGlobbing'] as const) {
    const v = view.get(name);
    if (v?.level === 'flag' && flagBool(v.value) === undefined)
      push(
        'controller/does-not-start',
        `The ApplicationSet controller of ${view.name} does not start: it is passed ${v.value === '' ? 'an empty value' : shown(v.value)} for a boolean flag (${v.where}), which is not a boolean (1, t, true, 0, f, false …) — nothing is generated for any ApplicationSet.`,
        kindAt,
      );
  }
  // The controller appends its own namespace to applicationsetcontroller.namespaces: with any entry at
  // all (even only its own namespace) the list has two, and then SCM providers on with no allow-list
  // stop it ("len(applicationSetNamespaces) == 1" is the only case without the check).
  const listed = view.get('namespaces');
  const namespaces = settingList(listed);
  const scm = settingBool(view.get('scmProviders'), true);
  const allowed = settingList(view.get('allowedScmProviders'));
  if (namespaces.length && scm && !allowed.length)
    push(
      'controller/does-not-start',
      `The ApplicationSet controller of ${view.name} does not start: applicationsetcontroller.namespaces is set (${listed!.value}, ${listed!.where}) while SCM providers are on and applicationsetcontroller.allowed.scm.providers is empty; the controller adds its own namespace to the list and then refuses to start — set allowed.scm.providers (or enable.scm.providers: false)${namespaces.every((n) => n === view.gov.installs[0]?.namespace) ? ', or remove the setting: listing only its own namespace changes nothing else' : ''}.`,
      kindAt,
    );
}

function scmFindings(ctx: AppSetContext, view: ControllerSettings, push: Push) {
  const enabledSetting = view.get('scmProviders');
  const enabled = settingBool(enabledSetting, true);
  const allowedSetting = view.get('allowedScmProviders');
  const allowed = settingList(allowedSetting);
  for (const { g, entry } of generators(fieldsOf(ctx.doc).generatorEntries)) {
    for (const kind of ['scmProvider', 'pullRequest'] as const) {
      const gen = g[kind];
      if (!isObj(gen)) continue;
      if (!enabled) {
        push(
          'controller/scm-providers-disabled',
          `This ${kind} generator fails: ${view.name} runs its ApplicationSet controller with SCM providers disabled (applicationsetcontroller.enable.scm.providers: ${enabledSetting!.value}, ${enabledSetting!.where}), so the ApplicationSet generates nothing and keeps its Applications as they are.`,
          sub(entry.at, kind).keySpan,
        );
        continue;
      }
      if (!allowed.length) continue;
      for (const provider of SCM_APIS[kind]) {
        const block = gen[provider];
        const api = isObj(block) && typeof block.api === 'string' ? block.api : '';
        // ScmProviderAllowed: no custom URL, or an exact entry of the list.
        if (!api || allowed.includes(api)) continue;
        push(
          'controller/scm-provider-not-allowed',
          `This ${kind} generator fails: its API URL "${api}" is not one of the SCM providers ${view.name} allows (applicationsetcontroller.allowed.scm.providers: ${allowedSetting!.value}, ${allowedSetting!.where}; the URL must match an entry exactly), so the ApplicationSet generates nothing and keeps its Applications as they are.`,
          sub(sub(sub(entry.at, kind), provider), 'api').span,
        );
      }
    }
  }
}
