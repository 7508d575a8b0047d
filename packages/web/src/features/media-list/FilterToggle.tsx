import { Button } from '@mantine/core';
import { memo } from 'react';

interface ToggleProps<T extends string> {
  value: T;
  label: string;
  count?: number;
  active: boolean;
  onToggle: (value: T) => void;
}

/** A pressed/unpressed filter button with its count. */
function FilterToggleButton<T extends string>(props: ToggleProps<T>) {
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

export const FilterToggle = memo(FilterToggleButton) as typeof FilterToggleButton;
