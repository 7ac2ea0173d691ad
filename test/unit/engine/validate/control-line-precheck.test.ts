/**
 * The literal check in front of the control-line pattern (issue 39: a pattern not run is not compiled)
 * never skips a text the pattern would match: over random texts of the pieces the patterns look for, a
 * text the check turns away has no match (`matchLinesWithBraces`, as the rule runs it).
 */
import { mayHoldControlLine } from '../../../../server/src/engine/validate/templateInStructure';
import { precheckTests } from '../../../helpers/patternEquivalence';

// The rule's pattern (validate/templateInStructure.ts CONTROL_LINE).
const CONTROL_LINE = /^[ \t]*\{\{-?\s*(if|else|end|range|with|define|template|block)\b[^\n]*\}\}[ \t]*$/my;

const CONTROL_PIECES = ['\n', '\r', '\u2028', '\u2029', ' ', '\t', '{{', '{{- ', 'if', ' end', '}}', 'x', ':', '- '];

precheckTests('control line', mayHoldControlLine, CONTROL_LINE, CONTROL_PIECES);
