import { Table } from '@mantine/core';
import type { Track } from '@sluice/api';
import { formatBitrate } from '../../lib/bitrate.js';
import { formatBytes } from '../clients/session-format.js';
import type { LiveFileStats } from './live-file.js';

function details(track: Track): string {
  if (track.content === 'video' && track.width && track.height) return `${track.width}x${track.height}`;
  if (track.content === 'audio' && track.sample_rate) return `${track.sample_rate} Hz`;
  return '';
}

/** An opened file's figures and tracks; a file nobody plays now has no clients and no tracks shown. */
export function FileStats({ stats = {} }: { stats: LiveFileStats | undefined }) {
  const rows: [string, string][] = [
    ['Clients', String(stats.client_count ?? 0)],
    ['Bytes out', formatBytes(stats.bytes_out ?? 0)],
  ];
  if (stats.out_bandwidth !== undefined) rows.push(['Bitrate', formatBitrate(stats.out_bandwidth)]);
  if (stats.opened_at !== undefined) rows.push(['Opened at', new Date(stats.opened_at).toLocaleString()]);
  const tracks = stats.media_info?.tracks ?? [];
  return (
    <>
      <Table withTableBorder maw={600} aria-label="file stats">
        <Table.Tbody>
          {rows.map(([label, value]) => (
            <Table.Tr key={label}>
              <Table.Th w={160}>{label}</Table.Th>
              <Table.Td>{value}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {tracks.length > 0 && (
        <Table withTableBorder maw={600} aria-label="media info">
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
      )}
    </>
  );
}
