/**
 * The options a render runs with and what it reports back. Their own module so that the library's
 * files import them from here and never the public entry (index.ts re-exports them).
 */
export interface RenderOptions {
  goTemplate: boolean;
  /** `spec.goTemplateOptions` (only meaningful in goTemplate mode). */
  options?: readonly string[];
  /**
   * Functions the Argo CD release being modelled does not define (older releases lack some, e.g.
   * `toYaml` before 2.10): a template calling one fails to parse with Go's "function not defined".
   */
  missingFunctions?: readonly string[];
  /** Name of the root template in error texts: `base` (Argo CD 3.3+, the default) or `""` (before 3.3). */
  templateName?: string;
  /** Go and library versions of the Argo CD release being modelled; default: Argo CD 3.2+'s. */
  libraries?: TemplateLibraries;
}

/**
 * The Go toolchain and template libraries an Argo CD release was built with (its Dockerfile's
 * golang image and go.mod), where they change what a template does.
 */
export interface TemplateLibraries {
  /** Go minor version (1.20 → 20): `{{else with}}` parses from 23, `{{range 3}}` runs from 24. */
  goMinor: number;
  /** Masterminds/semver/v3 behind `semver` and `semverCompare`. */
  semver: '3.2.1' | '3.3.0' | '3.3.1' | '3.4.0';
  /** huandu/xstrings behind `camelcase`: v1.3.3's ToCamelCase (sprig v3.2.3) or v1.5.0's ToPascalCase (sprig v3.3.0). */
  xstrings: '1.3.3' | '1.5.0';
}

/** What templates run with when nothing else is said: Argo CD 3.2 and newer. */
export const NEWEST_LIBRARIES: TemplateLibraries = { goMinor: 26, semver: '3.4.0', xstrings: '1.5.0' };

/** Collects facts about a render that make a preview non-exact. */
export interface RenderReport {
  /** Non-deterministic functions that ran (`now`, `randAlphaNum`, `uuidv4`, …). */
  nonDeterministic: Set<string>;
}
