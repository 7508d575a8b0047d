import { Group, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useGlobal, useView } from '../../api/use-live.js';
import { ReadOnlyFields } from '../../components/ReadOnlyFields.js';
import { SaveStatus } from '../../components/SaveStatus.js';
import { localHttpPort } from '../auth/auth-type.js';
import { useInstantSave } from '../stream-item/use-instant-save.js';
import { disableDelta, enableDelta, type IptvStream, isIptvEnabled, splitStreams } from './iptv-streams.js';

const NO_STREAMS: Record<string, IptvStream> = {};

/**
 * One stream's toggle: saved at once through the config, the spec's enable/disable rule applied.
 * Not optimistic: the stream stays in its group, the toggle locked, until the server has the
 * change, so a refusal shows here rather than on a toggle that has already moved to the other group.
 */
function StreamToggle({ name, httpPort }: { name: string; httpPort: number }) {
  const stream = useView<IptvStream>(['streams', name]) ?? {};
  const enabled = isIptvEnabled(stream);
  const { save, status, saving } = useInstantSave();
  return (
    <Group gap="sm" wrap="nowrap">
      <Switch
        label={stream.title ? `${name} (${stream.title})` : name}
        aria-label={`IPTV ${name}`}
        checked={enabled}
        disabled={saving}
        onChange={() => void save(enabled ? disableDelta(name, stream) : enableDelta(name, stream, httpPort))}
      />
      {status.phase === 'failed' && <SaveStatus status={status} />}
    </Group>
  );
}

function StreamGroup({ title, names, httpPort }: { title: string; names: string[]; httpPort: number }) {
  return (
    <Stack gap={6} component="section" aria-label={`${title} streams`}>
      <Title order={4}>{title}</Title>
      {names.length === 0 && <Text c="dimmed">—</Text>}
      {names.map((name) => (
        <StreamToggle key={name} name={name} httpPort={httpPort} />
      ))}
    </Stack>
  );
}

/**
 * Spec 002 §2: the streams with a Filter, Enabled (meta.iptv, listed in the users' playlists) and
 * Disabled apart, each with a toggle.
 */
export function IptvStreams() {
  const streams = (useGlobal('streams') as Record<string, IptvStream> | undefined) ?? NO_STREAMS;
  const httpPort = localHttpPort(useGlobal('http'));
  const [filter, setFilter] = useState('');
  const { enabled, disabled } = splitStreams(streams, filter);
  return (
    <Stack gap="sm" component="section" aria-label="IPTV streams">
      <Title order={3}>Streams</Title>
      <TextInput
        label="Filter"
        aria-label="Filter streams"
        value={filter}
        onChange={(event) => setFilter(event.currentTarget.value)}
        maw={320}
      />
      <ReadOnlyFields>
        <Group align="start" gap="xl">
          <StreamGroup title="Enabled" names={enabled} httpPort={httpPort} />
          <StreamGroup title="Disabled" names={disabled} httpPort={httpPort} />
        </Group>
      </ReadOnlyFields>
    </Stack>
  );
}
