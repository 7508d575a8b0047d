/**
 * Drag reorder (spec 000 §2). While a stream is dragged the list shows it as a placeholder slot
 * under the pointer; every row is 40 px, so the slot follows from the pointer's height alone and
 * does not jump when the rows shift around it.
 */
export const PLACEHOLDER = '\u0000placeholder';

/**
 * The list as shown while `dragged` is held over `slot`: the stream taken out and the placeholder
 * put in its place (or, once dropped and saving, the stream itself).
 */
export function withPlaceholder(
  names: readonly string[],
  dragged: string,
  slot: number,
  filler: string = PLACEHOLDER,
): string[] {
  const rest = names.filter((n) => n !== dragged);
  if (rest.length === names.length) return [...names];
  const at = Math.min(Math.max(0, slot), rest.length);
  return [...rest.slice(0, at), filler, ...rest.slice(at)];
}

/** The slot under a pointer `offsetPx` below the top of the list's content. */
export function slotAt(offsetPx: number, rowHeightPx: number, count: number): number {
  return Math.min(Math.max(0, Math.floor(offsetPx / rowHeightPx)), Math.max(0, count - 1));
}

/**
 * The config position to save for a stream at config position `moved`, dropped just above the
 * stream at position `below` (or, last in a filtered list, just under the one at `above`). The
 * server places it there and shifts the others, so the position is counted without the stream.
 */
export function dropPosition(moved: number, above: number | undefined, below: number | undefined): number {
  if (below !== undefined) return below < moved ? below : below - 1;
  if (above !== undefined) return above < moved ? above + 1 : above;
  return moved;
}
