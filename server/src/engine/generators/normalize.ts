/**
 * Argo CD's SanitizeName (`applicationset/utils`), used for nameNormalized, basenameNormalized,
 * filenameNormalized: lowercase, every rune outside [-a-z0-9.] becomes one '-', cut to 253 bytes,
 * then trim '-' and '.' at both ends.
 */
export function normalize(s: string): string {
  let out = '';
  for (const ch of s.toLowerCase()) out += /[-a-z0-9.]/.test(ch) ? ch : '-';
  const bytes = Buffer.from(out, 'utf8');
  if (bytes.length > 253) out = bytes.subarray(0, 253).toString('utf8');
  return out.replace(/^[-.]+|[-.]+$/g, '');
}
