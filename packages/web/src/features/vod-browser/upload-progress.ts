/**
 * Each file's share of one multipart upload, in percent. The browser reports bytes of the whole
 * body (the files in order, with a few hundred bytes of part headers between them): the sent
 * fraction of the body is laid over the files in the order they are sent.
 */
export function perFilePercent(
  sizesBytes: readonly number[],
  loadedBytes: number,
  totalBytes: number,
): number[] {
  const payloadBytes = sizesBytes.reduce((sum, size) => sum + size, 0);
  const fraction = totalBytes > 0 ? Math.min(1, Math.max(0, loadedBytes / totalBytes)) : 0;
  let sentBytes = fraction * payloadBytes;
  return sizesBytes.map((size) => {
    const mine = Math.min(size, sentBytes);
    sentBytes -= mine;
    if (size === 0) return fraction >= 1 ? 100 : 0;
    return Math.floor((mine / size) * 100);
  });
}
