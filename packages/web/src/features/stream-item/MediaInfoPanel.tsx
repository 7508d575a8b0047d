import { Alert, Stack, Table, Text } from '@mantine/core';
import type { Track } from '@sluice/api';
import { useStreamStats } from './use-stream.js';

/** Spec 001 §5, §8. */
export const MPEG2_NOTICE = 'This track uses MPEG-2 codec and probably would not play in your browser.';
const isMpeg2 = (codec: string) => /^(mp2v|mpeg2video|mpeg2)$/i.test(codec);

function details(track: Track): string {
  if (track.content === 'video' && track.width && track.height) return `${track.width}x${track.height}`;
  if (track.content === 'audio' && track.sample_rate) return `${track.sample_rate} Hz`;
  return '';
}

/** The tracks of the stream's output (media_info), with the MPEG-2 notice where it applies. */
export function MediaInfoPanel({ name }: { name: string }) {
  return <MediaTracksPanel tracks={useStreamStats(name)?.media_info?.tracks ?? []} />;
}

/** Tracks of any live stream (a stream's, a published one's): nothing while there are none. */
export function MediaTracksPanel({ tracks }: { tracks: Track[] }) {
  if (tracks.length === 0) return null;
  return (
    <Stack gap="xs" aria-label="media info">
      <Table withTableBorder maw={600}>
        <Table.Tbody>
          {tracks.map((track) => (
            <Table.Tr key={track.track_id}>
              <Table.Td>{track.track_id}</Table.Td>
              <Table.Td>{track.content}</Table.Td>
              <Table.Td>{track.codec}</Table.Td>
              <Table.Td>{details(track)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {tracks.some((t) => isMpeg2(t.codec)) && (
        <Alert color="yellow">
          <Text size="sm">{MPEG2_NOTICE}</Text>
        </Alert>
      )}
    </Stack>
  );
}
