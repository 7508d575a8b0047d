import {
  ActionIcon,
  Badge,
  Card,
  CloseButton,
  Group,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
  UnstyledButton,
} from '@mantine/core';
import type { AuthBackend } from '@sluice/api';
import { useState } from 'react';
import { type Chip, chipGroups } from './backend-rules.js';

/** The title: click to rename; Enter or leaving the field applies the trimmed name. */
function BackendTitle({ name, onRename }: { name: string; onRename: (name: string) => void }) {
  const [draft, setDraft] = useState<string>();
  if (draft === undefined)
    return (
      <UnstyledButton title="Click to rename" aria-label={`rename ${name}`} onClick={() => setDraft(name)}>
        <Title order={4}>{name}</Title>
      </UnstyledButton>
    );
  const apply = () => {
    onRename(draft);
    setDraft(undefined);
  };
  return (
    <TextInput
      aria-label="Auth backend name"
      autoFocus
      value={draft}
      onChange={(event) => setDraft(event.currentTarget.value)}
      onBlur={apply}
      onKeyDown={(event) => {
        if (event.key === 'Enter') apply();
        if (event.key === 'Escape') setDraft(undefined);
      }}
    />
  );
}

const chipLabel = (chip: Chip) =>
  chip.mode === 'backend' ? `backend ${chip.value}` : `${chip.mode} ${chip.variant} ${chip.value}`;

/** One auth backend (spec 002 §2): title, Allow default, delete, and its values as chips by group. */
export function AuthBackendCard({
  name,
  backend,
  onRename,
  onChange,
  onDelete,
  onPick,
  onRemove,
}: {
  name: string;
  backend: AuthBackend;
  onRename: (name: string) => void;
  onChange: (backend: AuthBackend) => void;
  onDelete: () => void;
  onPick: (chip: Chip) => void;
  onRemove: (chip: Chip) => void;
}) {
  return (
    <Card withBorder component="section" aria-label={`auth backend ${name}`}>
      <Stack gap="sm">
        <Group justify="space-between">
          <BackendTitle name={name} onRename={onRename} />
          <Group gap="md">
            <Switch
              label="Allow default"
              aria-label="Allow default"
              checked={backend.allow_default === true}
              onChange={(event) => onChange({ ...backend, allow_default: event.currentTarget.checked })}
            />
            <ActionIcon color="red" variant="light" aria-label={`delete ${name}`} onClick={onDelete}>
              ✕
            </ActionIcon>
          </Group>
        </Group>
        {chipGroups(backend).map(({ group, chips }) => (
          <Group key={group} gap="xs" aria-label={`${group} chips`} role="group">
            <Text size="sm" fw={600} w={70}>
              {group}
            </Text>
            {chips.map((chip) => (
              <Badge
                key={`${chip.mode}:${chip.value}`}
                color={chip.color}
                variant="light"
                size="lg"
                tt="none"
                aria-label={chipLabel(chip)}
                data-mode={chip.mode}
                style={{ cursor: 'pointer' }}
                onClick={() => onPick(chip)}
                rightSection={
                  <CloseButton
                    size="xs"
                    aria-label={`remove ${chipLabel(chip)}`}
                    onClick={(event) => {
                      event.stopPropagation();
                      onRemove(chip);
                    }}
                  />
                }
              >
                {chip.value}
              </Badge>
            ))}
          </Group>
        ))}
      </Stack>
    </Card>
  );
}
