/** Helm charts as test data: the files of a chart folder, as `workspaceFor` and `memHost` take them. */

/** A chart's `Chart.yaml`: apiVersion v2, its name and version. */
export function chartYaml(name: string, version = '0.1.0'): string {
  return `apiVersion: v2\nname: ${name}\nversion: ${version}\n`;
}

/** The files of chart `name` in `folder`: its Chart.yaml and, when given, its values.yaml. */
export function chartFiles(folder: string, name: string, values?: string): Record<string, string> {
  return { [`${folder}/Chart.yaml`]: chartYaml(name), ...(values === undefined ? {} : { [`${folder}/values.yaml`]: values }) };
}
