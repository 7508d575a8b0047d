import type { MediaFilter } from '@sluice/api';
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { readListParams, writeListParams } from './list-params.js';

/** The filter toggles and text query, held in the URL so a link reproduces the view (spec 000 §2). */
export function useListParams() {
  const [params, setParams] = useSearchParams();
  const search = params.toString();
  const { filters, query } = useMemo(() => readListParams(new URLSearchParams(search)), [search]);

  const update = useCallback(
    (change: { filters?: readonly MediaFilter[]; query?: string }) =>
      setParams(
        (current) => {
          const now = readListParams(current);
          return writeListParams(current, { ...now, ...change });
        },
        { replace: true },
      ),
    [setParams],
  );
  const setFilters = useCallback((next: readonly MediaFilter[]) => update({ filters: next }), [update]);
  const setQuery = useCallback((next: string) => update({ query: next }), [update]);
  return { filters, query, setFilters, setQuery, search };
}
