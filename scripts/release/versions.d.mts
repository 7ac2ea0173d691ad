export const KINDS: Record<string, RegExp>;
export interface VersionReference {
  file: string;
  line: number;
  kind: string;
  version: string;
}
export function versionReferences(root: string): VersionReference[];
export function versionProblems(root: string): string[];
