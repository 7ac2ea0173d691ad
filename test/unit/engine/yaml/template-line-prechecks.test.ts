/**
 * The literal check in front of the unquoted-template pattern (issue 39: a pattern not run is not compiled)
 * never skips a text the pattern would match: over random texts of the pieces the patterns look for, a
 * text the check turns away has no match (`matchLinesWithBraces`, as the rule runs it).
 */
import { mayHoldUnquotedTemplate } from '../../../../server/src/engine/yaml/unquotedTemplate';
import { precheckTests } from '../../../helpers/patternEquivalence';

// The rule's pattern (yaml/unquotedTemplate.ts UNQUOTED_LINE).
const UNQUOTED_LINE = /^([ \t]*(?:- )?(?:[^\s#'"{][^:#\n]*:[ \t]+|- ))(\{\{[^\n]*?)[ \t]*(?:[ \t]#[^\n]*)?$/my;

const UNQUOTED_PIECES = ['key:', 'name: ', ' ', '\t', '{{', '{{ .x', 'x', '}}', '\n', '- ', '-', '#', "'", ':'];

precheckTests('unquoted template', mayHoldUnquotedTemplate, UNQUOTED_LINE, UNQUOTED_PIECES);
