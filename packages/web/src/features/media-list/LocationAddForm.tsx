import { Button, Group, TextInput } from '@mantine/core';
import { memo, useCallback, useState } from 'react';
import { modifyConfig } from '../../api/config-calls.js';
import { useLiveSync } from '../../api/live-context.js';
import type { LiveState } from '../../api/live-state.js';
import type { LiveStore } from '../../api/live-store.js';
import { useLive } from '../../api/use-live.js';
import { useSaveRunner } from '../../api/use-save-runner.js';
import { SaveStatus } from '../../components/SaveStatus.js';
import { locationNameProblem, stripWhitespace } from './item-names.js';

/**
 * Adds a publishing location (spec 000 §2, §5, §7): "Location name" with whitespace stripped,
 * required, refused when a location or a VOD has it; saved as {lives: {<prefix>: {prefix}}}.
 */
export const LocationAddForm = memo(function LocationAddForm() {
  const sync = useLiveSync();
  const { run, status, saving } = useSaveRunner();
  const [name, setName] = useState('');
  const selectProblem = useCallback(
    (state: LiveState, store: LiveStore) =>
      locationNameProblem(name, {
        lives: store.viewAt(state, ['lives']) as object | undefined,
        vods: store.viewAt(state, ['vods']) as object | undefined,
      }),
    [name],
  );
  const problem = useLive(selectProblem);

  const create = async () => {
    const delta = { lives: { [name]: { prefix: name } } };
    const ok = await run(async () => {
      await modifyConfig(delta);
      await sync.confirmSaved(delta);
    });
    if (ok) setName('');
  };

  return (
    <Group
      component="form"
      aria-label="Add location"
      gap="xs"
      align="flex-start"
      onSubmit={(event) => {
        event.preventDefault();
        if (name && !problem && !saving) void create();
      }}
    >
      <TextInput
        label="Location name"
        value={name}
        onChange={(event) => setName(stripWhitespace(event.currentTarget.value))}
        error={problem}
        w={260}
      />
      <Group gap="xs" mt={25}>
        <Button type="submit" disabled={!name || Boolean(problem) || saving}>
          Create
        </Button>
        <Button variant="default" onClick={() => setName('')} disabled={!name}>
          Discard
        </Button>
        <SaveStatus status={status} />
      </Group>
    </Group>
  );
});
