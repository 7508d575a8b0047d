import { Button, Group, Stack, Table, TextInput } from '@mantine/core';
import type { StreamStats } from '@sluice/api';
import { useState } from 'react';
import { formatBitrate } from '../../lib/bitrate.js';
import { formatLifetime } from '../../lib/duration.js';
import { useAdminToken, withAdminToken } from '../auth/admin-token.js';
import { useMediaName } from '../item-page/use-media-name.js';
import { LiveVideo } from '../media-list/LiveVideo.js';
import { playbackUrl } from '../media-list/play-url.js';
import { MediaTracksPanel } from '../stream-item/MediaInfoPanel.js';
import { usePublishedLocation, usePublishedStats } from './use-published.js';

/**
 * The published stream's overview: its name (read-only, the path the publisher chose), how it is
 * doing (status, publisher, bitrate, running time), its tracks, and a player.
 */
export function PublishedOverviewTab() {
  const name = useMediaName();
  const prefix = usePublishedLocation(name) ?? '';
  const stats = usePublishedStats(prefix, name);
  return (
    <Stack gap="lg" maw={720}>
      <TextInput label="Name" aria-label="Name" readOnly value={name} maw={600} />
      <PublishedFigures stats={stats} />
      <MediaTracksPanel tracks={stats?.media_info?.tracks ?? []} />
      <PublishedPlayer name={name} alive={stats?.alive === true} />
    </Stack>
  );
}

function PublishedFigures({ stats }: { stats: StreamStats | undefined }) {
  const from = stats?.published_from;
  const rows: [string, string][] = [
    ['Status', stats?.alive ? 'Online' : 'Offline'],
    ['Publisher', from ? `${from}${stats.published_via ? ` (${stats.published_via})` : ''}` : ''],
    ['Bitrate', stats?.alive ? formatBitrate(stats.bitrate) : ''],
    ['Running', stats?.lifetime === undefined ? '' : formatLifetime(stats.lifetime / 1000)],
  ];
  return (
    <Table aria-label="stream status" withTableBorder maw={600}>
      <Table.Tbody>
        {rows.map(([label, value]) => (
          <Table.Tr key={label} aria-label={label}>
            <Table.Th w={140}>{label}</Table.Th>
            <Table.Td>{value}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** Like a stream's player (spec 001 §4): starts on a click, plays while the stream is alive. */
function PublishedPlayer({ name, alive }: { name: string; alive: boolean }) {
  const [clicked, setClicked] = useState(false);
  const token = useAdminToken();
  if (!clicked)
    return (
      <Group>
        <Button variant="default" onClick={() => setClicked(true)}>
          Play
        </Button>
      </Group>
    );
  return alive ? <LiveVideo src={withAdminToken(playbackUrl(name), token)} style={{ height: 480 }} /> : null;
}
