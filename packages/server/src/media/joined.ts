/**
 * The parts as one buffer: a view when they lie end to end in the same memory (the pieces of one
 * chunk cut around its access units, the usual case), else a copy.
 */
export function joined(parts: readonly Buffer[]): Buffer {
  const first = parts[0]!;
  let end = first.byteOffset + first.length;
  for (let i = 1; i < parts.length; i++) {
    const part = parts[i]!;
    if (part.buffer !== first.buffer || part.byteOffset !== end) return Buffer.concat(parts);
    end += part.length;
  }
  return Buffer.from(first.buffer, first.byteOffset, end - first.byteOffset);
}
