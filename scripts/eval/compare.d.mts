// Types of compare.mjs for the TypeScript test (test/unit/eval-compare.test.ts).
export interface EvalFinding {
  severity: 'error' | 'warning' | 'information' | 'hint';
  code: string;
  fingerprint: string;
  line?: number;
  message?: string;
}
export interface EvalOutcome {
  repo: string;
  file: string;
  status: 'ok' | 'crash' | 'timeout';
  detail?: string;
  findings: EvalFinding[];
}
export interface EvalClassification {
  findings: { repo: string; fingerprint: string; code?: string; file?: string; verdict: boolean; reason: string }[];
}
type Judged = EvalFinding & { repo: string; file: string; reason?: string };
export interface EvalComparison {
  files: number;
  filesWithFalseError: number;
  filesWithFalseWarning: number;
  falseErrors: Judged[];
  falseWarnings: Judged[];
  trueFindings: Judged[];
  unclassified: Judged[];
  crashes: { repo: string; file: string; status: string; detail: string }[];
}
export function halfOf(repo: string): 'dev' | 'held-out';
export function keyOf(repo: string, fingerprint: string): string;
export function compare(outcomes: EvalOutcome[], classification: EvalClassification): EvalComparison;
export function byCode(findings: { code: string }[]): string;
export function percent(part: number, whole: number): string;
export interface EvalRunOutcome extends EvalOutcome {
  exit?: number;
}
export interface EvalChange {
  kind: 'gone' | 'new' | 'severity' | 'message' | 'status';
  repo: string;
  file: string;
  code?: string;
  line?: number;
  before?: string;
  after?: string;
  verdict?: boolean;
}
export function changes(before: EvalRunOutcome[], after: EvalRunOutcome[], classification: EvalClassification): EvalChange[];
