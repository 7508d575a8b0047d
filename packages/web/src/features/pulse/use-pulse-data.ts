import { useQueries } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { requestJson } from '../../api/http-client.js';
import { useLiveSync } from '../../api/live-context.js';
import type { EventListener } from '../../api/live-sync.js';
import { HOURS_REFRESH_MS, HOURS_SPAN_MS, MINUTE_SPAN_MS, canonicalQuery, pulseRangePath } from './board.js';
import { type PulseAnswer, pulseAnswer, pulseSeriesEvent } from '@sluice/api';
import { type QuerySeries, mergeLive, withQuery } from './series-data.js';

/** The last hours of each query from the store (range call), asked again every minute. */
export function usePulseHours(queries: string[]): { series?: QuerySeries[]; stepMs: number; error?: Error } {
  const joined = queries.join('\n');
  // Stable, so react-query hands back the same combined object until an answer changes.
  const combine = useCallback(
    (results: { data?: PulseAnswer; error: Error | null }[]) => {
      const list = joined.split('\n');
      const answers = results.map((r) => r.data);
      return {
        series: answers.every((a) => a !== undefined)
          ? answers.flatMap((a, i) => withQuery(list[i] ?? '', a?.series ?? []))
          : undefined,
        stepMs: Math.max(0, ...answers.map((a) => a?.step_ms ?? 0)),
        error: results.find((r) => r.error)?.error ?? undefined,
      };
    },
    [joined],
  );
  return useQueries({
    queries: queries.map((query) => ({
      queryKey: ['pulse-range', query],
      queryFn: () => {
        const to = Date.now();
        return requestJson(pulseRangePath(query, to - HOURS_SPAN_MS, to), pulseAnswer);
      },
      refetchInterval: HOURS_REFRESH_MS,
      retry: false,
    })),
    combine,
  });
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
      const order = joined.split('\n');
      // Lines in the graph's order, whichever topic answered first.
      const rank = (s: QuerySeries) => order.indexOf(s.query);
      setSeries((old) =>
        mergeLive(old ?? [], query, parsed.data.series, MINUTE_SPAN_MS).sort((a, b) => rank(a) - rank(b)),
      );
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
