import { Text } from '@mantine/core';
import { useMemo } from 'react';
import { type BoardGraph, kindOf, splitTitle, tagsKey } from './board.js';
import { PulseGraph } from './PulseGraph.js';
import { type QuerySeries, extendWithLive, latestValue, splitByTags } from './series-data.js';
import { usePulseHours, usePulseMinute } from './use-pulse-data.js';

/** One graph of the board (or one per disk / partition), fed by the store and the live topics. */
export function BoardGraphView({ graph }: { graph: BoardGraph }) {
  const stored = usePulseHours(graph.queries);
  const minute = usePulseMinute(graph.queries);
  const { series: storedSeries, stepMs } = stored;
  const hours = {
    error: stored.error,
    series: useMemo(
      () => storedSeries && extendWithLive(storedSeries, minute, stepMs),
      [storedSeries, minute, stepMs],
    ),
  };
  const kind = kindOf(graph.queries);
  const error = hours.error && (
    <Text size="sm" c="red" role="alert">
      {hours.error.message}
    </Text>
  );
  if (!graph.split) {
    return (
      <div>
        <PulseGraph title={graph.title} kind={kind} hours={hours.series} minute={minute} />
        {error}
      </div>
    );
  }
  const groups = splitByTags([...(hours.series ?? []), ...(minute ?? [])]);
  if (groups.length === 0) {
    return (
      <div>
        <PulseGraph title={graph.title} kind={kind} hours={hours.series} minute={minute} />
        {error}
      </div>
    );
  }
  const only = (list: QuerySeries[] | undefined, key: string) => list?.filter((s) => tagsKey(s.tags) === key);
  return (
    <>
      {groups.map(({ key, series }) => {
        const live = only(minute, key);
        const title = splitTitle(graph, series[0]?.tags ?? {}, latestValue(live ?? series));
        return (
          <PulseGraph
            key={key}
            title={title}
            kind={kind}
            hours={only(hours.series, key)}
            minute={live}
            single
          />
        );
      })}
      {error}
    </>
  );
}
