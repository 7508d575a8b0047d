import type { Mirror } from '@sluice/api';

/**
 * Mirror modes (spec 000 §4): static when the mirror has no `only` list; on demand when it has one,
 * and `only` then holds the names pulled statically (every other stream is pulled on demand).
 * `except` holds the ignored names. Each function returns the fields of `sources[pos]` to save;
 * null deletes a list.
 */
export type MirrorMode = 'static' | 'ondemand';
export type ModeLists = Pick<Mirror, 'only' | 'except'>;
export interface ListsChange {
  only?: string[] | null;
  except?: string[] | null;
}

export const mirrorMode = (mirror: ModeLists): MirrorMode =>
  mirror.only === undefined ? 'static' : 'ondemand';

const without = (list: readonly string[] | undefined, name: string) => (list ?? []).filter((n) => n !== name);
const orNull = (list: string[]) => (list.length > 0 ? list : null);

/** The default-mode radio: static removes `only`; on demand starts an empty `only`, so every stream waits for clients. */
export function defaultModeChange(mode: MirrorMode): ListsChange {
  return mode === 'static' ? { only: null } : { only: [] };
}

/** Ignoring a stream adds it to `except` (and takes it out of `only`, so the lists stay apart). */
export function ignoreChange(mirror: ModeLists, name: string): ListsChange {
  const except = [...without(mirror.except, name), name];
  return mirror.only?.includes(name) ? { except, only: without(mirror.only, name) } : { except };
}

/**
 * Restart an ignored stream as static: it moves from `except` to `only`. A static mirror (no `only`)
 * pulls every stream statically already, so there it only leaves `except`; creating `only` would
 * turn every other stream on demand.
 */
export function restartStaticChange(mirror: ModeLists, name: string): ListsChange {
  const except = orNull(without(mirror.except, name));
  if (mirror.only === undefined) return { except };
  return { except, only: [...without(mirror.only, name), name] };
}

/**
 * Restart an ignored stream on demand: it leaves `except`. In a static mirror a stream can only be
 * on demand if the mirror gets an `only` list; it gets the streams that are static now
 * (`staticNames`), so they stay static and this one alone waits for clients.
 */
export function restartOnDemandChange(
  mirror: ModeLists,
  name: string,
  staticNames: readonly string[],
): ListsChange {
  const except = orNull(without(mirror.except, name));
  if (mirror.only === undefined) {
    const ignored = new Set(mirror.except);
    return { except, only: staticNames.filter((n) => n !== name && !ignored.has(n)) };
  }
  return mirror.only.includes(name) ? { except, only: without(mirror.only, name) } : { except };
}
