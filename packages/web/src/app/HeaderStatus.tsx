import { Badge, Group, Text } from '@mantine/core';
import { useServerStats } from '../api/use-live.js';
import { formatLifetime } from '../lib/duration.js';
import { formatTraffic } from '../lib/traffic.js';

/** The header status line of spec 000 §2. */
export function HeaderStatus() {
  const stats = useServerStats();
  if (!stats) return null;
  const traffic = formatTraffic(stats.input_kbit, stats.output_kbit);
  const items = [
    `Streams: ${stats.total_streams} (${stats.online_streams})`,
    `Files: ${stats.opened_files}`,
    `Clients: ${stats.total_clients}`,
    `In: ${traffic.input}`,
    `Out: ${traffic.output}`,
    `Uptime: ${formatLifetime(stats.uptime)}`,
  ];
  return (
    <Group gap="md" wrap="nowrap" aria-label="server status" style={{ overflow: 'hidden' }}>
      <Text size="sm" fw={600} span>
        Version {stats.version}
        {stats.build > 0 ? ` build ${stats.build}` : ''}
      </Text>
      {stats.retroview_enabled && (
        <Badge color="green" variant="light">
          Collecting statistics
        </Badge>
      )}
      {/* A warning to read, not a control: nothing here turns collection on (spec 000 §2). */}
      {!stats.retroview_configured && (
        <Text size="sm" c="orange" span role="note" style={{ whiteSpace: 'nowrap' }}>
          <span aria-hidden="true">⚠ </span>Enable statistics collection
        </Text>
      )}
      {items.map((item) => (
        <Text key={item.split(':')[0]} size="sm" span style={{ whiteSpace: 'nowrap' }}>
          {item}
        </Text>
      ))}
    </Group>
  );
}
