import { type HistoryV2Response, historyV2Response } from '@sluice/api';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { requestJson } from '../../api/http-client.js';
import {
  HISTORY_SPAN_MS,
  type HistoryFlags,
  type HistorySort,
  type HistoryTarget,
  historyQuery,
} from './history-query.js';

/**
 * The session log of a stream or a location's streams over the last day (spec 001 §7 history call). A change of flags or
 * sort is another query, fetched anew (spec 001 §4 "toggling graph/sessions/report refetches").
 */
export function useHistory(target: HistoryTarget, flags: HistoryFlags, sort: HistorySort | undefined) {
  return useQuery<HistoryV2Response>({
    queryKey: ['history', target, flags, sort],
    queryFn: () => {
      const to = Date.now();
      return requestJson(
        historyQuery(target, { from: to - HISTORY_SPAN_MS, to }, flags, sort),
        historyV2Response,
      );
    },
    placeholderData: keepPreviousData,
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
}
