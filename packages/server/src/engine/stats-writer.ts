import { getIn } from '../live/live-view.js';

export type ViewWrite = readonly [readonly string[], unknown];

/**
 * The live-view writes that bring an item's stats to `stats`: one per field whose value changed
 * (undefined removes a field gone), so each websocket delta carries what moved and nothing else.
 * The view itself is the memory of what was written: an item deleted and created again gets all
 * its fields anew. An item the view no longer holds gets no writes (they would bring it back).
 */
export function statsWrites(
  snapshot: unknown,
  itemPath: readonly string[],
  stats: Record<string, unknown>,
): ViewWrite[] {
  const item = getIn(snapshot, itemPath);
  if (item === undefined || item === null || typeof item !== 'object') return [];
  const current = (item as Record<string, unknown>).stats;
  const before = current && typeof current === 'object' ? (current as Record<string, unknown>) : {};
  const writes: ViewWrite[] = [];
  for (const [field, value] of Object.entries(stats)) {
    if (!same(before[field], value)) writes.push([[...itemPath, 'stats', field], value]);
  }
  for (const field of Object.keys(before)) {
    if (!(field in stats)) writes.push([[...itemPath, 'stats', field], undefined]);
  }
  return writes;
}

function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  return JSON.stringify(a) === JSON.stringify(b);
}
