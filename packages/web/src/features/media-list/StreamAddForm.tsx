import { Button, Group, TextInput } from '@mantine/core';
import { convertSourceUrl, sourceUrlProblem } from '@sluice/api';
import { memo, useCallback, useState } from 'react';
import { modifyConfig } from '../../api/config-calls.js';
import { useLiveSync } from '../../api/live-context.js';
import type { LiveState } from '../../api/live-state.js';
import type { LiveStore } from '../../api/live-store.js';
import { useLive } from '../../api/use-live.js';
import { useSaveRunner } from '../../api/use-save-runner.js';
import { SaveStatus } from '../../components/SaveStatus.js';
import { required, streamNameProblem, stripWhitespace } from './item-names.js';

/**
 * Add stream (spec 000 §2, 001 §5): a unique name and a source URL, http(s) addresses converted
 * on leaving the field and refused when they can't be. Created static, so it starts at once.
 */
export const StreamAddForm = memo(function StreamAddForm() {
  const sync = useLiveSync();
  const { run, status, saving } = useSaveRunner();
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const [urlLeft, setUrlLeft] = useState(false);
  const selectProblem = useCallback(
    (state: LiveState, store: LiveStore) =>
      streamNameProblem(name, store.viewAt(state, ['streams']) as object),
    [name],
  );
  const nameProblem = useLive(selectProblem);
  const urlProblem = url.trim() ? sourceUrlProblem(url.trim()) : required('Source URL');

  const discard = () => {
    setName('');
    setUrl('');
    setUrlLeft(false);
  };
  const create = async () => {
    const source = convertSourceUrl(url.trim());
    const delta = { streams: { [name]: { urls: [{ url: source }], static: true } } };
    const ok = await run(async () => {
      await modifyConfig(delta);
      await sync.confirmSaved(delta);
    });
    if (ok) discard();
  };

  return (
    <Group
      component="form"
      aria-label="Add stream"
      gap="xs"
      align="flex-start"
      onSubmit={(event) => {
        event.preventDefault();
        if (!nameProblem && !urlProblem && !saving) void create();
      }}
    >
      <TextInput
        label="Name"
        value={name}
        onChange={(event) => setName(stripWhitespace(event.currentTarget.value))}
        error={name ? nameProblem : undefined}
        w={220}
      />
      <TextInput
        label="Source URL"
        placeholder="udp://239.0.0.1:1234"
        value={url}
        onChange={(event) => setUrl(event.currentTarget.value)}
        onBlur={() => {
          setUrl((u) => convertSourceUrl(u.trim()));
          setUrlLeft(true);
        }}
        error={urlLeft && url ? urlProblem : undefined}
        w={360}
      />
      <Group gap="xs" mt={25}>
        <Button type="submit" disabled={Boolean(nameProblem || urlProblem) || saving}>
          Create
        </Button>
        <Button variant="default" onClick={discard} disabled={!name && !url}>
          Discard
        </Button>
        <SaveStatus status={status} />
      </Group>
    </Group>
  );
});
