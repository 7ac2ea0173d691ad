/** Diagnostic codes owned by the generators and the rendering of Applications. Keep the summaries to one line. */
export const GENERATOR_CODES = [
  {
    code: 'generator/error',
    severity: 'error',
    summary:
      "A generator fails the way the controller would (Argo CD's error text); the controller then creates, updates and deletes nothing.",
  },
  {
    code: 'generator/live-data',
    severity: 'information',
    summary:
      'This generator needs live data (pull requests, SCM repositories, cluster decisions, a plugin); the preview uses samples from the inventory or shows nothing.',
  },
  {
    code: 'generator/too-many-applications',
    severity: 'warning',
    summary: 'The expansion stopped at appsetTools.maxApplications; the preview shows only the first Applications.',
  },
  {
    code: 'generator/invalid-application',
    severity: 'error',
    variant: {
      severity: 'information',
      when: 'the only problem is a destination cluster name that no cluster Secret in the repository registers, or a destination rendered from the cluster generator while the repository registers no cluster: a cluster added with argocd cluster add or by Terraform is known only at run time (an inventory given with inventoryFiles keeps it an error); or a name made invalid by the upper-case placeholders of a sed/envsubst scaffold (the ApplicationSet’s own name is one too)',
    },
    summary: "A generated Application fails the controller's validation (no name, bad name, bad destination) and is skipped.",
  },
  {
    code: 'generator/duplicate-name',
    severity: 'error',
    summary: 'Several parameter sets render the same Application name; the controller skips every copy.',
  },
  {
    code: 'generator/missing-param',
    severity: 'warning',
    summary:
      'The template references a parameter that some parameter sets lack, so those Applications render <no value> or an untouched {{tag}}.',
  },
  {
    code: 'generator/in-cluster-metadata',
    severity: 'warning',
    summary:
      'The implicit in-cluster entry of a cluster generator without selector has no metadata, so .metadata lookups fail or print <no value> for it.',
  },
  {
    code: 'generator/no-git-checkout',
    severity: 'information',
    summary:
      "No local checkout of the git generator's repoURL was found (map it with appsetTools.repoMappings); the generator yields nothing in the preview.",
  },
  {
    code: 'generator/no-oci-artifact',
    severity: 'information',
    summary:
      "No folder is mapped to the oci generator's repoURL (map one holding the artifact's content with repoMappings or --repo-map); the generator yields nothing in the preview.",
  },
  {
    code: 'generator/placeholder-repo',
    severity: 'information',
    summary:
      "The git generator's repoURL is a placeholder (<<url>>, ${REPO}, <org>, changeme) filled in before Argo CD reads the file; the generator yields nothing offline.",
  },
  {
    code: 'generator/working-tree',
    severity: 'information',
    summary: 'The git generator read the local working tree, not the remote revision the controller would read.',
  },
  {
    code: 'generator/bad-pattern',
    severity: 'warning',
    summary: 'A git directories pattern is not a valid Go path.Match pattern; the controller logs it and skips it, so it selects nothing.',
  },
  {
    code: 'generator/empty',
    severity: 'warning',
    variant: {
      severity: 'information',
      when: 'there is no offline data to judge by, the clusters are those Argo CD registers at run time (a cluster selector, or a post-selector over parameter sets that come in part from clusters the repository does not register), the list is empty as written, exclude patterns remove every match, or another top-level generator yields (the ApplicationSet still generates Applications)',
    },
    summary:
      'A generator yields 0 Applications offline, and this says why: the selector matches none of the known clusters (nearest shown), the git pattern matches no directory or file (nearest shown), the list is empty, or there is no offline data (and how to add it).',
  },
  {
    code: 'generator/absolute-pattern',
    severity: 'warning',
    summary: 'A git directories pattern starts with "/", but repository paths never do: it selects nothing.',
  },
] as const;
