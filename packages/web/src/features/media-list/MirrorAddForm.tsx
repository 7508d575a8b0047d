import { Button, Group, TextInput } from '@mantine/core';
import { memo, useState } from 'react';
import { modifyConfig } from '../../api/config-calls.js';
import { useLiveSync } from '../../api/live-context.js';
import { useSaveRunner } from '../../api/use-save-runner.js';
import { SaveStatus } from '../../components/SaveStatus.js';
import { stripWhitespace } from './item-names.js';

/**
 * Adds an origin mirror (spec 000 §2, §5, §7): "Mirrored server url", whitespace stripped and
 * required; "Cluster key", optional. Saved as {sources: {"-1": {urls: [url], cluster_key}}}: the
 * server gives it the next position.
 */
export const MirrorAddForm = memo(function MirrorAddForm() {
  const sync = useLiveSync();
  const { run, status, saving } = useSaveRunner();
  const [url, setUrl] = useState('');
  const [clusterKey, setClusterKey] = useState('');

  const create = async () => {
    const delta = { sources: { '-1': { urls: [url], ...(clusterKey ? { cluster_key: clusterKey } : {}) } } };
    const ok = await run(async () => {
      await modifyConfig(delta);
      await sync.confirmSaved(delta);
    });
    if (ok) {
      setUrl('');
      setClusterKey('');
    }
  };

  return (
    <Group
      component="form"
      aria-label="Add mirror"
      gap="xs"
      align="flex-start"
      onSubmit={(event) => {
        event.preventDefault();
        if (url && !saving) void create();
      }}
    >
      <TextInput
        label="Mirrored server url"
        value={url}
        onChange={(event) => setUrl(stripWhitespace(event.currentTarget.value))}
        placeholder="http://origin:80"
        w={300}
      />
      <TextInput
        label="Cluster key"
        value={clusterKey}
        onChange={(event) => setClusterKey(event.currentTarget.value)}
        w={200}
      />
      <Group gap="xs" mt={25}>
        <Button type="submit" disabled={!url || saving}>
          Create
        </Button>
        <Button
          variant="default"
          onClick={() => {
            setUrl('');
            setClusterKey('');
          }}
          disabled={!url && !clusterKey}
        >
          Discard
        </Button>
        <SaveStatus status={status} />
      </Group>
    </Group>
  );
});
