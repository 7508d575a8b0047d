import { ActionIcon, Button, Fieldset, Group, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import type { Dvr } from '@sluice/api';
import { useState } from 'react';
import {
  DISK_MODES,
  type DiskMode,
  orderedDisks,
  withDiskAdded,
  withDiskMode,
  withDiskRemoved,
  withDiskRenamed,
} from './dvr-form.js';

const modeOf = (value: string): DiskMode => DISK_MODES.find((mode) => mode === value) ?? '';
const MODE_CHOICES = DISK_MODES.map((mode) => ({ value: mode, label: mode === '' ? 'default' : mode }));

/** A disk's name under the root: a draft, applied when the field is left (an empty or taken name is undone). */
function DiskNameInput({ name, onRename }: { name: string; onRename: (name: string) => void }) {
  const [draft, setDraft] = useState<string>();
  const apply = () => {
    if (draft !== undefined) onRename(draft);
    setDraft(undefined);
  };
  return (
    <TextInput
      aria-label="Disk name"
      placeholder="Disk name"
      value={draft ?? name}
      onChange={(event) => setDraft(event.currentTarget.value)}
      onBlur={apply}
      onKeyDown={(event) => {
        if (event.key === 'Enter') apply();
      }}
    />
  );
}

/** Disks (spec 002 §2, §3): folders under the root, in order, each with its mode; delete and add. */
export function DvrDisksSection({ dvr, onChange }: { dvr: Dvr; onChange: (dvr: Dvr) => void }) {
  const names = orderedDisks(dvr.disks);
  const prefix = `${dvr.root ?? 'root'}/`;
  return (
    <Fieldset legend="Disks">
      <Stack gap={6}>
        {names.map((name) => (
          <Group key={name} gap="xs" role="group" aria-label={`disk ${name}`}>
            <Text size="sm" ff="monospace">
              {prefix}
            </Text>
            <DiskNameInput name={name} onRename={(typed) => onChange(withDiskRenamed(dvr, name, typed))} />
            <NativeSelect
              aria-label="Mode"
              data={MODE_CHOICES}
              value={dvr.disks?.[name]?.mode ?? ''}
              onChange={(event) => onChange(withDiskMode(dvr, name, modeOf(event.currentTarget.value)))}
            />
            <ActionIcon
              color="red"
              variant="light"
              aria-label={`delete disk ${name}`}
              onClick={() => onChange(withDiskRemoved(dvr, name))}
            >
              ✕
            </ActionIcon>
          </Group>
        ))}
        <Group>
          <Button variant="light" size="xs" onClick={() => onChange(withDiskAdded(dvr))}>
            Add disk
          </Button>
        </Group>
      </Stack>
    </Fieldset>
  );
}
