import { Group } from '@mantine/core';
import { featureFilters, type MediaFilter, statusFilters, toggleFilter } from '@sluice/api';
import { memo, useCallback } from 'react';
import { FilterToggle } from './FilterToggle.js';
import { QueryField } from './QueryField.js';
import type { ListSpec, StreamIndex } from './stream-index.js';
import { useStreamCounts } from './use-stream-list.js';

/** The toggles' labels (spec 000 §2 Filter bar). */
const labels: Record<MediaFilter, string> = {
  online: 'online',
  waiting: 'waiting',
  error: 'error',
  dvr: 'with DVR',
  transcoder: 'transcoded',
};

interface Props {
  query: string;
  onQuery: (query: string) => void;
  filters: readonly MediaFilter[];
  onFilters: (filters: MediaFilter[]) => void;
  /** The list whose counts it shows. */
  list: { index: StreamIndex; spec: ListSpec; urlPublish: boolean };
}

/**
 * Text filter with its match count; status toggles (one at a time) and feature toggles, each
 * counted. Counts change with the streams' status; only the figures that moved re-render.
 */
export const StreamsFilterBar = memo(function StreamsFilterBar(props: Props) {
  const { filters, onFilters, list } = props;
  const { matches, counts } = useStreamCounts(list.index, list.spec, list.urlPublish);
  const onToggle = useCallback((f: MediaFilter) => onFilters(toggleFilter(filters, f)), [filters, onFilters]);
  return (
    <Group gap="xs" wrap="wrap">
      <QueryField query={props.query} onQuery={props.onQuery} matches={matches} />
      {[...statusFilters, ...featureFilters].map((filter) => (
        <FilterToggle
          key={filter}
          value={filter}
          label={labels[filter]}
          count={counts[filter]}
          active={filters.includes(filter)}
          onToggle={onToggle}
        />
      ))}
    </Group>
  );
});
