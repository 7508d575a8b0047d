import { Button, Group, TextInput } from '@mantine/core';
import { useState } from 'react';
import { NAME_TAKEN } from './browser-constants.js';

/**
 * Spec 002 §2/§4/§5 new directory: 'This name is already taken' for a name an entry of the list
 * already has, or when the server answers 409; Save is disabled while the name is empty or taken.
 */
export function NewDirectoryForm({
  existing,
  onMake,
}: {
  existing: ReadonlySet<string>;
  /** Resolves 'taken' when the server says the name exists; throws on other failures. */
  onMake: (name: string) => Promise<'made' | 'taken'>;
}) {
  const [name, setName] = useState('');
  const [serverTaken, setServerTaken] = useState<string>();
  const [failure, setFailure] = useState<string>();
  const [busy, setBusy] = useState(false);
  const trimmed = name.trim();
  const taken = existing.has(trimmed) || serverTaken === trimmed;
  const error = trimmed !== '' && taken ? NAME_TAKEN : failure;

  const save = async () => {
    setBusy(true);
    setFailure(undefined);
    try {
      const result = await onMake(trimmed);
      if (result === 'taken') setServerTaken(trimmed);
      else setName('');
    } catch (problem) {
      setFailure(problem instanceof Error ? problem.message : String(problem));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Group gap="sm" align="flex-start">
      <TextInput
        aria-label="New directory"
        placeholder="New directory"
        value={name}
        error={error}
        onChange={(event) => {
          setName(event.currentTarget.value);
          setFailure(undefined);
        }}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && trimmed !== '' && !taken && !busy) void save();
        }}
        w={260}
      />
      <Button variant="default" disabled={trimmed === '' || taken} loading={busy} onClick={() => void save()}>
        Save
      </Button>
    </Group>
  );
}
