/** The encodings the console's build is precompressed in, best first (brotli is ~15 % smaller than gzip). */
export const PRECOMPRESSED = ['br', 'gzip'] as const;
export type Precompressed = (typeof PRECOMPRESSED)[number];

/**
 * The best of `available` that an Accept-Encoding header takes (RFC 9110 §12.5.3): a coding listed
 * with q above 0, or covered by `*`; none (undefined) sends the file as it is. Between two codings
 * of equal q, the order of `available` decides.
 */
export function pickEncoding(
  header: string | undefined,
  available: readonly Precompressed[] = PRECOMPRESSED,
): Precompressed | undefined {
  if (!header) return undefined;
  const weights = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const weight = q === undefined ? 1 : Number.parseFloat(q.slice(2));
    if (name) weights.set(name, Number.isNaN(weight) ? 0 : weight);
  }
  let best: { coding: Precompressed; weight: number } | undefined;
  for (const coding of available) {
    const weight = weights.get(coding) ?? weights.get('*') ?? 0;
    if (weight > 0 && (!best || weight > best.weight)) best = { coding, weight };
  }
  return best?.coding;
}
