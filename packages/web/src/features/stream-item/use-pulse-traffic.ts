import { pulseTrafficEvent } from '@sluice/api';
import { useCallback, useState } from 'react';
import type { EventListener } from '../../api/live-sync.js';
import { useTopic } from '../../api/use-topic.js';

export type TrafficSeries = { label: string; points: [number, number][] }[];

/** Appends the newest points to the series of the same label. */
function merge(old: TrafficSeries, update: TrafficSeries): TrafficSeries {
  return old.map((series) => {
    const added = update.find((u) => u.label === series.label)?.points ?? [];
    const last = series.points[series.points.length - 1]?.[0] ?? -Infinity;
    return { ...series, points: [...series.points, ...added.filter(([t]) => t > last)] };
  });
}

/** The per-minute traffic of a stream (pulse topic media/{name}); undefined until the first event. */
export function usePulseTraffic(name: string): TrafficSeries | undefined {
  const topic = `media/${encodeURIComponent(name)}`;
  const [series, setSeries] = useState<TrafficSeries>();
  const onEvent = useCallback<EventListener>(
    (event) => {
      const parsed = pulseTrafficEvent.safeParse(event);
      if (!parsed.success || parsed.data.topic !== topic) return;
      const update = parsed.data.series;
      setSeries((old) => (parsed.data.partial_update && old ? merge(old, update) : update));
    },
    [topic],
  );
  useTopic(`pulse_subscribe:${topic}`, `pulse_unsubscribe:${topic}`, onEvent);
  return series;
}
