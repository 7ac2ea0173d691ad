/**
 * Expands one ApplicationSet into the Applications the controller would create.
 * (Placeholder: the generators work replaces the body; keep the signature.)
 */
import type { FileContext } from '../service/context';
import type { AppSetDoc } from '../yaml/document';
import type { Expansion } from './types';

export function expandAppSet(doc: AppSetDoc, file: FileContext): Expansion {
  void doc; void file;
  return { apps: [], problems: [], generators: [], notes: ['generators are not implemented yet'], exact: false, capped: false, clusters: [] };
}
