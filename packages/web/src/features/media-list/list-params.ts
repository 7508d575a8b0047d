import { isMediaFilter, type MediaFilter } from '@sluice/api';

/** Query parameters of the media list (spec 000 §2): filter (a list of strings) and query (text). */
export const FILTER_PARAM = 'filter';
export const QUERY_PARAM = 'query';

export function readListParams(params: URLSearchParams): { filters: MediaFilter[]; query: string } {
  const filters = [...new Set(params.getAll(FILTER_PARAM).filter(isMediaFilter))];
  return { filters, query: params.get(QUERY_PARAM) ?? '' };
}

/** `params` with the filter and query replaced; other parameters are kept, empty ones dropped. */
export function writeListParams(
  params: URLSearchParams,
  state: { filters: readonly MediaFilter[]; query: string },
): URLSearchParams {
  const next = new URLSearchParams(params);
  next.delete(FILTER_PARAM);
  for (const filter of state.filters) next.append(FILTER_PARAM, filter);
  if (state.query) next.set(QUERY_PARAM, state.query);
  else next.delete(QUERY_PARAM);
  return next;
}
