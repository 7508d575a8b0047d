import { Group, Stack, Title } from '@mantine/core';
import { Outlet } from 'react-router';
import { ItemMissing } from '../item-page/ItemMissing.js';
import { ChangedElsewhereNotice } from '../../components/ChangedElsewhereNotice.js';
import { ItemTabs } from '../item-page/ItemTabs.js';
import { useMediaName } from '../item-page/use-media-name.js';
import { useStreamExists } from './use-stream.js';
import { StreamActions } from '../stream-actions/StreamActions.js';

/** The tabs of spec 001 §2 "Stream item", in its order. */
const TABS = [
  { label: 'Overview', route: 'stream-item/overview' },
  { label: 'Input', route: 'stream-item/input' },
  { label: 'Output', route: 'stream-item/output' },
  { label: 'DVR', route: 'stream-item/dvr' },
  { label: 'Auth', route: 'stream-item/auth' },
  { label: 'Transcoder', route: 'stream-item/transcoder' },
  { label: 'Clients', route: 'stream-item/clients' },
  { label: 'History', route: 'stream-item/history' },
];

/** A stream's page: 'Loading stream {name}...' until the config is in, then its tabs or a not-found. */
export function StreamPage() {
  const name = useMediaName();
  const exists = useStreamExists(name);
  if (!exists) return <ItemMissing kind="Stream" name={name} loadingText={`Loading stream ${name}...`} />;
  return (
    <Stack gap="md">
      <Group gap="sm">
        <Title order={2}>{name}</Title>
        <StreamActions name={name} />
      </Group>
      <ItemTabs label="stream tabs" tabs={TABS} mediaName={name} />
      <ChangedElsewhereNotice item={['streams', name]} what="stream" />
      {/* Keyed by name: a tab's local state (player shown, log open) resets for another stream. */}
      <Outlet key={name} />
    </Stack>
  );
}
