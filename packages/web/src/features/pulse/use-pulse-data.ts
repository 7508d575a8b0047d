import { useQueries } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { requestJson } from '../../api/http-client.js';
import { useLiveSync } from '../../api/live-context.js';
import type { EventListener } from '../../api/live-sync.js';
import { HOURS_REFRESH_MS, HOURS_SPAN_MS, MINUTE_SPAN_MS, canonicalQuery, pulseRangePath } from './board.js';
import { pulseAnswer, pulseSeriesEvent } from '@sluice/api';
import { type QuerySeries, mergeLive, withQuery } from './series-data.js';

/** The last hours of each query from the store (range call), asked again every minute. */
export function usePulseHours(queries: string[]): { series?: QuerySeries[]; error?: Error } {
  const results = useQueries({
    queries: queries.map((query) => ({
      queryKey: ['pulse-range', query],
      queryFn: () => {
        const to = Date.now();
        return requestJson(pulseRangePath(query, to - HOURS_SPAN_MS, to), pulseAnswer);
      },
      refetchInterval: HOURS_REFRESH_MS,
      retry: false,
    })),
  });
  const error = results.find((r) => r.error)?.error ?? undefined;
  if (results.some((r) => !r.data)) return { error };
  return { series: results.flatMap((r, i) => withQuery(queries[i] ?? '', r.data?.series ?? [])), error };
}

/**
 * The last minute of each query, live: one `pulse_subscribe:<query>` topic each while mounted
 * (resent after a reconnect by the connection), the points of each message appended.
 * Undefined until the first message.
 */
export function usePulseMinute(queries: string[]): QuerySeries[] | undefined {
  const { connection, onEvent } = useLiveSync();
  const [series, setSeries] = useState<QuerySeries[]>();
  const joined = queries.join('\n');

  const listener = useCallback<EventListener>(
    (event) => {
      if (event.event !== 'pulse.series') return;
      const parsed = pulseSeriesEvent.safeParse(event);
      if (!parsed.success) return;
      const echoed = canonicalQuery(parsed.data.query);
      const query = joined.split('\n').find((q) => canonicalQuery(q) === echoed);
      if (query === undefined) return;
      setSeries((old) => mergeLive(old ?? [], query, parsed.data.series, MINUTE_SPAN_MS));
    },
    [joined],
  );
  useEffect(() => onEvent(listener), [onEvent, listener]);
  useEffect(() => {
    const list = joined.split('\n');
    for (const q of list) connection.startCommand(`pulse_subscribe:${q}`);
    return () => {
      for (const q of list) connection.stopCommand(`pulse_subscribe:${q}`, `pulse_unsubscribe:${q}`);
    };
  }, [connection, joined]);
  return series;
}
