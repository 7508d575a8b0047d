import type { Config, ServerStats } from '@sluice/api';
import { useCallback, useMemo, useSyncExternalStore } from 'react';
import type { Path } from './edits.js';
import { useLiveSync } from './live-context.js';
import type { ConnectionState, LiveState } from './live-state.js';
import type { LiveStore } from './live-store.js';
import { getIn } from './live-tree.js';

/** A getSnapshot for useSyncExternalStore that keeps the previous slice while `isEqual` says it is the same. */
function sliceReader<T>(
  store: LiveStore,
  selector: (state: LiveState, store: LiveStore) => T,
  isEqual: (a: T, b: T) => boolean,
) {
  let last: { state: LiveState; value: T } | undefined;
  return (): T => {
    const state = store.getState();
    if (last?.state === state) return last.value;
    const value = selector(state, store);
    last = { state, value: last && isEqual(last.value, value) ? last.value : value };
    return last.value;
  };
}

/**
 * Reads a slice of the live store. The component re-renders only when the slice changes, by
 * `isEqual` (identity by default: the store keeps the identity of everything that did not change).
 */
export function useLive<T>(
  selector: (state: LiveState, store: LiveStore) => T,
  isEqual: (a: T, b: T) => boolean = Object.is,
): T {
  const { store } = useLiveSync();
  const getSnapshot = useMemo(() => sliceReader(store, selector, isEqual), [store, selector, isEqual]);
  return useSyncExternalStore(store.subscribe, getSnapshot);
}

const SEPARATOR = '\u0000';
const pathKey = (path: Path) => path.join(SEPARATOR);
const keyPath = (key: string): Path => (key === '' ? [] : key.split(SEPARATOR));

/** The config value at `path`, with unsaved edits laid over the server's. */
export function useView<T = unknown>(path: Path): T | undefined {
  const key = pathKey(path);
  // The path is rebuilt from its key so callers may pass a fresh array each render.
  const selector = useCallback(
    (state: LiveState, store: LiveStore) => store.viewAt(state, keyPath(key)) as T | undefined,
    [key],
  );
  return useLive(selector);
}

/** A top-level config field, typed by the config schema. */
export function useGlobal<K extends keyof Config & string>(key: K): Config[K] | undefined {
  return useView<Config[K]>([key]);
}

const selectStats = (state: LiveState) => state.server.stats;
export const useServerStats = (): ServerStats | undefined => useLive(selectStats);

const selectConnection = (state: LiveState) => state.connection;
export const useConnectionState = (): ConnectionState => useLive(selectConnection);

const selectLoaded = (state: LiveState) => state.loaded;
export const useLoaded = (): boolean => useLive(selectLoaded);

/** The changed flag of a field: true while it holds an unsaved edit. */
export function useChanged(path: Path): boolean {
  const key = pathKey(path);
  const selector = useCallback((state: LiveState) => getIn(state.edits, keyPath(key)) !== undefined, [key]);
  return useLive(selector);
}

/** Sets a field's unsaved value; null or undefined deletes it. */
export function useEdit(): (path: Path, value: unknown) => void {
  const { store } = useLiveSync();
  return useCallback((path, value) => store.edit(path, value), [store]);
}
