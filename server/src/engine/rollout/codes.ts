import type { CodeInfo } from '../diagnostics/codes';

/** Diagnostic codes owned by this area. Keep the summaries to one line. */
export const ROLLOUT_CODES: CodeInfo[] = [];
