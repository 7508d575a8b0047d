import { ActionIcon, Button, Fieldset, Group, Stack, Text, TextInput } from '@mantine/core';
import type { Dvr } from '@sluice/api';
import { useState } from 'react';
import { DEFAULT_SCHEDULE_RANGE, formatHhmm, parseHhmm, withField } from './dvr-form.js';

type Range = [number, number];

/** A time of day as HHMM: the typed text is kept while it is incomplete, committed once it is a time. */
function TimeField({
  label,
  value,
  onChange,
}: {
  label: string;
  value: number;
  onChange: (v: number) => void;
}) {
  const [text, setText] = useState(() => formatHhmm(value));
  const [seen, setSeen] = useState(value);
  if (seen !== value) {
    setSeen(value);
    if (parseHhmm(text) !== value) setText(formatHhmm(value));
  }
  return (
    <TextInput
      type="time"
      aria-label={label}
      value={text}
      onChange={(event) => {
        const next = event.currentTarget.value;
        setText(next);
        const time = parseHhmm(next);
        if (time !== undefined) onChange(time);
      }}
    />
  );
}

/**
 * Schedule (spec 002 §2, §3, §9): ranges of from/to times stored as [[HHMM, HHMM]]; a new range is
 * the whole day, 00:00 to 23:59; deleting the last range removes the schedule.
 */
export function DvrScheduleSection({ dvr, onChange }: { dvr: Dvr; onChange: (dvr: Dvr) => void }) {
  const ranges: Range[] = dvr.schedule ?? [];
  const write = (next: Range[]) => onChange(withField(dvr, 'schedule', next.length > 0 ? next : undefined));
  const setAt = (index: number, range: Range) => write(ranges.map((r, i) => (i === index ? range : r)));

  return (
    <Fieldset legend="Schedule">
      <Stack gap={6}>
        {ranges.length === 0 && (
          <Text size="sm" c="dimmed">
            No schedule: recording all day.
          </Text>
        )}
        {ranges.map(([from, to], index) => (
          <Group key={index} gap="xs" role="group" aria-label={`range ${index + 1}`}>
            <Text size="sm">From</Text>
            <TimeField label="From" value={from} onChange={(v) => setAt(index, [v, to])} />
            <Text size="sm">to</Text>
            <TimeField label="To" value={to} onChange={(v) => setAt(index, [from, v])} />
            <ActionIcon
              color="red"
              variant="light"
              aria-label={`delete range ${index + 1}`}
              onClick={() => write(ranges.filter((_, i) => i !== index))}
            >
              ✕
            </ActionIcon>
          </Group>
        ))}
        <Group>
          <Button variant="light" size="xs" onClick={() => write([...ranges, [...DEFAULT_SCHEDULE_RANGE]])}>
            Add range
          </Button>
        </Group>
      </Stack>
    </Fieldset>
  );
}
