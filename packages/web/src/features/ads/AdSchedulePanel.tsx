import { Accordion, Button, Fieldset, Group, NumberInput, Stack, Text, TextInput } from '@mantine/core';
import { nextAdSlot, type AdSchedule } from '@sluice/api';
import { maskSlotTime } from './ad-form.js';

const numberOf = (value: number | string) => (value === '' ? Number.NaN : Number(value));

/**
 * One schedule (spec 002 §2): Schedule name, Time slots (From through the HH:mm:ss mask, Duration,
 * Add slot with the follow-on rule of §9), Schedule files (read-only Filename, Weight) and Remove
 * buttons. `problems` holds the form's messages keyed `s.{index}.…`.
 */
export function AdSchedulePanel({
  index,
  schedule,
  problems,
  onChange,
  onRemove,
}: {
  index: number;
  schedule: AdSchedule;
  problems: ReadonlyMap<string, string>;
  onChange: (next: AdSchedule) => void;
  onRemove: () => void;
}) {
  const at = (...path: (string | number)[]) => problems.get(['s', index, ...path].join('.'));
  const title = schedule.name || 'New schedule';
  const setSlot = (j: number, patch: Partial<AdSchedule['slots'][number]>) =>
    onChange({ ...schedule, slots: schedule.slots.map((s, k) => (k === j ? { ...s, ...patch } : s)) });
  const setFile = (j: number, weight: number) =>
    onChange({ ...schedule, files: schedule.files.map((f, k) => (k === j ? { ...f, weight } : f)) });
  const invalid = [...problems.keys()].some((key) => key.startsWith(`s.${index}.`));

  return (
    <Accordion.Item value={String(index)} role="region" aria-label={`Ad schedule ${title}`}>
      <Accordion.Control>
        <Group gap="sm">
          <Text fw={600}>{title}</Text>
          <Text size="sm" c="dimmed">
            {schedule.slots.length} slots · {schedule.files.length} files
          </Text>
          {invalid && (
            <Text component="span" c="red" aria-hidden>
              ●
            </Text>
          )}
        </Group>
      </Accordion.Control>
      <Accordion.Panel>
        <Stack gap="md">
          <TextInput
            label="Schedule name"
            value={schedule.name}
            error={at('name')}
            onChange={(event) => onChange({ ...schedule, name: event.currentTarget.value })}
          />
          <Fieldset legend="Time slots">
            <Stack gap={6}>
              {schedule.slots.map((slot, j) => (
                <Group key={j} gap="xs" align="flex-start" role="group" aria-label={`slot ${j + 1}`}>
                  <TextInput
                    label="From"
                    placeholder="HH:mm:ss"
                    value={slot.from}
                    error={at('slots', j, 'from')}
                    onChange={(event) => setSlot(j, { from: maskSlotTime(event.currentTarget.value) })}
                  />
                  <NumberInput
                    label="Duration"
                    value={Number.isNaN(slot.duration) ? '' : slot.duration}
                    error={at('slots', j, 'duration')}
                    onChange={(value) => setSlot(j, { duration: numberOf(value) })}
                  />
                  <Button
                    mt={25}
                    color="red"
                    variant="light"
                    aria-label={`Remove slot ${j + 1}`}
                    onClick={() => onChange({ ...schedule, slots: schedule.slots.filter((_, k) => k !== j) })}
                  >
                    Remove
                  </Button>
                </Group>
              ))}
              <Group>
                <Button
                  variant="light"
                  size="xs"
                  onClick={() =>
                    onChange({ ...schedule, slots: [...schedule.slots, nextAdSlot(schedule.slots)] })
                  }
                >
                  Add slot
                </Button>
              </Group>
            </Stack>
          </Fieldset>
          <Fieldset legend="Schedule files">
            <Stack gap={6}>
              {schedule.files.length === 0 && (
                <Text size="sm" c="dimmed">
                  Check video files in the Files browser to add them.
                </Text>
              )}
              {schedule.files.map((file, j) => (
                <Group key={file.name} gap="xs" align="flex-start" role="group" aria-label={`file ${j + 1}`}>
                  <TextInput label="Filename" value={file.name} readOnly />
                  <NumberInput
                    label="Weight"
                    value={Number.isNaN(file.weight) ? '' : file.weight}
                    error={at('files', j, 'weight')}
                    onChange={(value) => setFile(j, numberOf(value))}
                  />
                  <Button
                    mt={25}
                    color="red"
                    variant="light"
                    aria-label={`Remove file ${file.name}`}
                    onClick={() => onChange({ ...schedule, files: schedule.files.filter((_, k) => k !== j) })}
                  >
                    Remove
                  </Button>
                </Group>
              ))}
            </Stack>
          </Fieldset>
          <Group>
            <Button color="red" variant="light" onClick={onRemove}>
              Remove schedule
            </Button>
          </Group>
        </Stack>
      </Accordion.Panel>
    </Accordion.Item>
  );
}
