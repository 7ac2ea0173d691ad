/**
 * Go's string order (`sort.Strings`, byte order of the UTF-8 encodings): the controller sorts
 * Application names, cluster names and git paths this way, so every list we show in "the
 * controller's order" uses it. Implemented once, in the Go template library.
 */
export { compareGoStrings } from '@appset-tools/gotemplate';
