import { isPlainObject } from '@sluice/api';

type Path = readonly string[];

/**
 * The live view writes that turn the server stats into `next`, key by key. A delta can't say
 * "replace this object": the console merges objects, and only a null removes a key. Written as one
 * `stats` object, a notice that went from `status` (a port freed, a reload that succeeded) stayed
 * in every open console until it was reloaded; written key by key, a key that went is a null in
 * the delta. Only keys whose value changed are logged, so a quiet second sends little.
 */
export function statsWrites(current: unknown, next: Record<string, unknown>): [Path, unknown][] {
  const before = isPlainObject(current) ? current : {};
  const writes: [Path, unknown][] = [];
  for (const key of Object.keys(before)) if (!(key in next)) writes.push([['stats', key], undefined]);
  for (const [key, value] of Object.entries(next)) {
    if (key !== 'status' || !isPlainObject(value)) {
      writes.push([['stats', key], value]);
      continue;
    }
    const was = isPlainObject(before.status) ? before.status : {};
    // `status` itself exists even when empty: the console reads its keys.
    if (!isPlainObject(before.status)) writes.push([['stats', 'status'], {}]);
    for (const name of Object.keys(was))
      if (!(name in value)) writes.push([['stats', 'status', name], undefined]);
    for (const [name, text] of Object.entries(value)) writes.push([['stats', 'status', name], text]);
  }
  return writes;
}
