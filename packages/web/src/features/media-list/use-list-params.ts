import type { MediaFilter } from '@sluice/api';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { readListParams, writeListParams } from './list-params.js';

type ListParams = { filters: MediaFilter[]; query: string };

const same = (a: ListParams, b: ListParams) =>
  a.query === b.query &&
  a.filters.length === b.filters.length &&
  a.filters.every((f, i) => f === b.filters[i]);

/**
 * The filter toggles and text query, mirrored in the URL so a link reproduces the view (spec 000
 * §2). A change shows in the list at once and goes to the URL alongside (the router applies it
 * as a transition, a frame or more later); a URL changed from outside — a link, back, forward —
 * sets them.
 */
export function useListParams() {
  const [params, setParams] = useSearchParams();
  const search = params.toString();
  const [state, setState] = useState(() => ({ search, value: readListParams(params) }));
  let current = state.value;
  if (state.search !== search) {
    // The URL moved: unless it only caught up with this state, it leads.
    const fromUrl = readListParams(new URLSearchParams(search));
    current = same(fromUrl, state.value) ? state.value : fromUrl;
    setState({ search, value: current });
  }

  // The newest value, for changes made faster than the router applies them.
  const latest = useRef(current);
  useEffect(() => {
    latest.current = current;
  }, [current]);

  const update = useCallback(
    (change: Partial<ListParams>) => {
      const value = { ...latest.current, ...change };
      latest.current = value;
      setState((s) => ({ ...s, value }));
      setParams((now) => writeListParams(now, value), { replace: true });
    },
    [setParams],
  );
  const setFilters = useCallback((next: readonly MediaFilter[]) => update({ filters: [...next] }), [update]);
  const setQuery = useCallback((next: string) => update({ query: next }), [update]);
  return { filters: current.filters, query: current.query, setFilters, setQuery };
}
