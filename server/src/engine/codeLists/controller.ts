/**
 * Findings about the ApplicationSet controller settings of the install that runs an ApplicationSet
 * (install/controller.ts; findings in features/controller/). Keep the summaries to one line.
 */
export const CONTROLLER_CODES = [
  {
    code: 'controller/namespace-not-watched',
    severity: 'warning',
    summary:
      "The ApplicationSet lies in a namespace the repository's Argo CD does not process ApplicationSets in (its own namespace and applicationsetcontroller.namespaces): it generates nothing.",
  },
  {
    code: 'controller/application-namespace-not-enabled',
    severity: 'warning',
    summary:
      "The ApplicationSet lies outside its Argo CD's namespace and that namespace is not in application.namespaces: the Applications it creates are never reconciled.",
  },
  {
    code: 'controller/scm-providers-disabled',
    severity: 'error',
    summary:
      'An SCM provider or pull request generator while the controller runs with SCM providers disabled (applicationsetcontroller.enable.scm.providers: false): the generator fails.',
  },
  {
    code: 'controller/scm-provider-not-allowed',
    severity: 'error',
    summary:
      "An SCM provider or pull request generator's API URL is not one of applicationsetcontroller.allowed.scm.providers: the generator fails and the ApplicationSet generates nothing.",
  },
  {
    code: 'controller/policy-not-applied',
    severity: 'warning',
    summary:
      'syncPolicy.applicationsSync is not applied: the controller sets its own applicationsetcontroller.policy and does not let ApplicationSets override it.',
  },
  {
    code: 'controller/does-not-start',
    severity: 'error',
    summary:
      'The settings of the Argo CD that runs the ApplicationSet stop its controller from starting (an unknown policy; applicationsetcontroller.namespaces set with SCM providers on and no allow-list; a boolean flag that is not a boolean): nothing is generated.',
  },
] as const;
