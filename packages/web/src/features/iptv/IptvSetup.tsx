import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError } from '../../api/http-client.js';
import { modifyConfig } from '../../api/config-calls.js';
import { useLiveSync } from '../../api/live-context.js';
import { EditOnly } from '../../components/EditOnly.js';
import { ReadOnlyFields } from '../../components/ReadOnlyFields.js';
import { NOT_CONFIGURED, STORE_ERROR } from './iptv-api.js';

/**
 * What the path field says of a refused enable: the server's words when they are the store error
 * (they add the path and the reason) or a plain refusal (400) or no answer at all, else the spec's.
 */
function enableError(error: unknown): string {
  if (!(error instanceof ApiError)) return STORE_ERROR;
  const own = error.status === 0 || error.status === 400 || error.message.startsWith(STORE_ERROR);
  return own ? error.message : STORE_ERROR;
}

/**
 * Spec 002 §2: 'IPTV is not configured', the 'Database path' field and 'Enable IPTV', which saves
 * plugins.iptv.database through the config; the server opens (creates) the store first and
 * refuses a path it can't use, and its 'unable to access database on path' shows on the field.
 * Also drawn, with the configured path and the store's error, when a configured store can't be used.
 */
export function IptvSetup({
  configured,
  suggestion,
  storeError,
}: {
  /** The path the config names, when it names one. */
  configured?: string;
  /** Spec 002 §9: an sqlite file under the server's private folder (the server says which). */
  suggestion: string;
  storeError?: string;
}) {
  const sync = useLiveSync();
  const queries = useQueryClient();
  const [path, setPath] = useState<string>();
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState(false);
  const shown = path ?? configured ?? suggestion;

  const enable = async () => {
    const delta = { plugins: { iptv: { database: shown.trim() } } };
    setSaving(true);
    setError(undefined);
    try {
      const revision = await modifyConfig(delta);
      await sync.confirmSaved(delta, revision);
      // The same path again (a store that was unreachable and now is): its status is asked anew.
      await queries.invalidateQueries({ queryKey: ['iptv-status'] });
    } catch (failure) {
      setError(enableError(failure));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Stack gap="sm" maw={640} component="section" aria-label="IPTV database">
      {configured === undefined && <Text fw={600}>{NOT_CONFIGURED}</Text>}
      <ReadOnlyFields>
        <TextInput
          label="Database path"
          description={`specify where Flussonic should store data, for example ${suggestion || '/var/lib/sluice/iptv/iptv.db'}`}
          placeholder={suggestion}
          value={shown}
          error={error ?? (path === undefined ? storeError : undefined)}
          onChange={(event) => {
            setPath(event.currentTarget.value);
            setError(undefined);
          }}
        />
      </ReadOnlyFields>
      <EditOnly>
        <Group>
          <Button onClick={() => void enable()} loading={saving} disabled={shown.trim() === ''}>
            Enable IPTV
          </Button>
        </Group>
      </EditOnly>
    </Stack>
  );
}
