// The generators use Argo CD's SanitizeName, which also backs the `normalize` template function.
export { normalize } from '@appset-tools/gotemplate';
