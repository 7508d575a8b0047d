import { memo } from 'react';
import { Group } from '@mantine/core';
import { type LocalFilter, localFilters, toggleLocalFilter } from '@sluice/api';
import { FilterToggle } from './FilterToggle.js';

const labels: Record<LocalFilter, string> = { published: 'published', no_sources: 'no sources' };

/** The stream list's local filter: none, published or no sources; selecting the active one clears it. */
export const LocalFilterToggles = memo(function LocalFilterToggles(props: {
  value: LocalFilter | undefined;
  onChange: (value: LocalFilter | undefined) => void;
}) {
  return (
    <Group gap={4} role="group" aria-label="Local filter">
      {localFilters.map((filter) => (
        <FilterToggle
          key={filter}
          value={filter}
          label={labels[filter]}
          active={props.value === filter}
          onToggle={(f) => props.onChange(toggleLocalFilter(props.value, f))}
        />
      ))}
    </Group>
  );
});
