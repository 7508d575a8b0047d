import { Badge, Button, Group, TextInput } from '@mantine/core';
import { featureFilters, type MediaFilter, statusFilters, toggleFilter } from '@sluice/api';
import { useEffect, useState } from 'react';

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
  matches: number;
  counts: Readonly<Record<MediaFilter, number>>;
}

/** Text filter with its match count; status toggles (one at a time) and feature toggles, each counted. */
export function StreamsFilterBar({ query, onQuery, filters, onFilters, matches, counts }: Props) {
  const text = useDebouncedText(query, onQuery);
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
          label={labels[filter]}
          count={counts[filter]}
          active={filters.includes(filter)}
          onClick={() => onFilters(toggleFilter(filters, filter))}
        />
      ))}
    </Group>
  );
}

export function FilterToggle(props: { label: string; count?: number; active: boolean; onClick: () => void }) {
  return (
    <Button
      size="xs"
      variant={props.active ? 'filled' : 'default'}
      aria-pressed={props.active}
      onClick={props.onClick}
      rightSection={props.count === undefined ? undefined : <span>{props.count}</span>}
    >
      {props.label}
    </Button>
  );
}

/** The query as typed, handed on 200 ms after the last keystroke; follows the URL when it changes. */
function useDebouncedText(value: string, onCommit: (value: string) => void) {
  const [draft, setDraft] = useState<string>();
  useEffect(() => {
    if (draft === undefined) return;
    const timer = setTimeout(() => {
      // Handed on, the URL leads again (a link, back and forward).
      setDraft(undefined);
      if (draft !== value) onCommit(draft);
    }, QUERY_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [draft, value, onCommit]);
  return { value: draft ?? value, change: setDraft };
}
