import { Badge, Button, Group, TextInput } from '@mantine/core';
import { featureFilters, type MediaFilter, statusFilters, toggleFilter } from '@sluice/api';
import { memo, useEffect, useState } from 'react';
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

/** Spec 000 §5, §9: input debounce 200 ms. */
export const QUERY_DEBOUNCE_MS = 200;

interface Props {
  query: string;
  onQuery: (query: string) => void;
  filters: readonly MediaFilter[];
  onFilters: (filters: MediaFilter[]) => void;
  /** The list whose counts it shows. */
  list: { index: StreamIndex; spec: ListSpec; urlPublish: boolean };
}

/** Text filter with its match count; status toggles (one at a time) and feature toggles, each counted. */
export const StreamsFilterBar = memo(function StreamsFilterBar({
  query,
  onQuery,
  filters,
  onFilters,
  list,
}: Props) {
  const text = useDebouncedText(query, onQuery);
  const { matches, counts } = useStreamCounts(list.index, list.spec, list.urlPublish);
  return (
    <Group gap="xs" wrap="wrap">
      <TextInput
        aria-label="Filter streams"
        placeholder="Filter"
        value={text.value}
        onChange={(event) => text.change(event.currentTarget.value)}
        rightSection={
          <Badge variant="light" aria-label="matching streams">
            {matches}
          </Badge>
        }
        rightSectionWidth={70}
        w={260}
      />
      {[...statusFilters, ...featureFilters].map((filter) => (
        <FilterToggle
          key={filter}
          value={filter}
          label={labels[filter]}
          count={counts[filter]}
          active={filters.includes(filter)}
          onToggle={(f) => onFilters(toggleFilter(filters, f))}
        />
      ))}
    </Group>
  );
});

interface ToggleProps<T extends string> {
  value: T;
  label: string;
  count?: number;
  active: boolean;
  onToggle: (value: T) => void;
}

/** A pressed/unpressed filter button with its count. */
export function FilterToggle<T extends string>(props: ToggleProps<T>) {
  return (
    <Button
      size="xs"
      variant={props.active ? 'filled' : 'default'}
      aria-pressed={props.active}
      onClick={() => props.onToggle(props.value)}
      rightSection={props.count === undefined ? undefined : <span>{props.count}</span>}
    >
      {props.label}
    </Button>
  );
}

/**
 * The query as typed, handed on 200 ms after the last keystroke. The typed text shows until the
 * URL holds it (the router applies it a moment later); from then on the URL leads again, so
 * back, forward and links set the field.
 */
function useDebouncedText(value: string, onCommit: (value: string) => void) {
  const [draft, setDraft] = useState<string>();
  // Caught up: drop the draft during this render (React's pattern for state following props).
  if (draft !== undefined && draft === value) setDraft(undefined);
  useEffect(() => {
    if (draft === undefined || draft === value) return;
    const timer = setTimeout(() => onCommit(draft), QUERY_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [draft, value, onCommit]);
  return { value: draft ?? value, change: setDraft };
}
