import { Alert, Button, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { modifyConfig } from '../../api/config-calls.js';
import { ApiError } from '../../api/http-client.js';
import { useLiveSync } from '../../api/live-context.js';
import { useView } from '../../api/use-live.js';
import { EditOnly } from '../../components/EditOnly.js';
import { NotAppliedMark } from '../../components/NotAppliedMark.js';
import { ReadOnlyFields } from '../../components/ReadOnlyFields.js';
import { WATCHER_UNAVAILABLE, type WatcherPlugins, watcherDelta } from './watcher-save.js';

/**
 * Spec 002 §2 "Watcher page": the vsaas database path with Save (the spec's save rules, watcher-save.ts).
 * Sluice runs no Watcher, so the heading links nowhere and the spec's unavailable message stands:
 * the settings are kept in the config for a Watcher elsewhere (docs/config.md "Watcher").
 */
export function WatcherPage() {
  const sync = useLiveSync();
  const plugins = useView<WatcherPlugins>(['plugins']) ?? {};
  const configured = plugins.vsaas?.database ?? '';
  const [path, setPath] = useState<string>();
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string>();
  const [saved, setSaved] = useState(false);
  const shown = path ?? configured;

  const save = async () => {
    const delta = watcherDelta(shown, plugins);
    setSaving(true);
    setError(undefined);
    setSaved(false);
    try {
      const revision = await modifyConfig(delta);
      await sync.confirmSaved(delta, revision);
      setPath(undefined);
      setSaved(true);
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : String(failure));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Stack gap="md" maw={800} component="section" aria-label="Watcher">
      <Title order={2}>Watcher</Title>
      <Alert color="yellow" title={WATCHER_UNAVAILABLE}>
        This server runs no Watcher (IP camera management). Contact your provider to get it; the settings
        below are kept in the config for it.
      </Alert>
      <ReadOnlyFields>
        <TextInput
          label="Database path"
          description="The database of the vsaas plugin"
          value={shown}
          error={error}
          onChange={(event) => {
            setPath(event.currentTarget.value);
            setSaved(false);
          }}
        />
      </ReadOnlyFields>
      {configured !== '' && (
        <NotAppliedMark path={['plugins', 'vsaas', 'database']} label="Watcher database" />
      )}
      <EditOnly>
        <Group>
          <Button
            onClick={() => void save()}
            loading={saving}
            disabled={path === undefined || path === configured}
          >
            Save
          </Button>
          {saved && <Text c="dimmed">Saved.</Text>}
        </Group>
      </EditOnly>
    </Stack>
  );
}
