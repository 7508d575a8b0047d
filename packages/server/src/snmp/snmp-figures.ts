import type { ServerStats, StreamStats } from '@sluice/api';
import type { SystemSample } from '../pulse/system-samplers.js';
import type { SnmpFigures } from './snmp-mib.js';

/**
 * The SNMP figures from the live view (its `stats` is what the stats API answers, refreshed each
 * second in main.ts) and the last system sample (Pulse's, each second): no figure of its own.
 */
export function snmpFigures(
  snapshot: Record<string, unknown>,
  sample: SystemSample | undefined,
): SnmpFigures {
  const stats = (snapshot.stats ?? {}) as Partial<ServerStats>;
  const streams = (snapshot.streams ?? {}) as Record<string, { stats?: StreamStats } | undefined>;
  return {
    uptimeSeconds: stats.uptime ?? 0,
    totalStreams: stats.total_streams ?? 0,
    onlineStreams: stats.online_streams ?? 0,
    totalClients: stats.total_clients ?? 0,
    inputKbit: stats.input_kbit ?? 0,
    outputKbit: stats.output_kbit ?? 0,
    cpuPercent: sample?.cpu_usage ?? 0,
    serverCpuPercent: sample?.server_cpu_usage ?? 0,
    streams: Object.entries(streams).map(([name, stream]) => ({
      name,
      alive: stream?.stats?.alive === true,
      bitrateKbit: stream?.stats?.bitrate ?? 0,
      clients: stream?.stats?.client_count ?? 0,
    })),
  };
}
