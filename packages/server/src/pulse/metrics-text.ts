import type { PushStats, ServerStats, StreamStats } from '@sluice/api';
import type { SystemSample } from './system-samplers.js';

/** The Content-Type of the Prometheus text exposition format this builds. */
export const PROMETHEUS_TEXT = 'text/plain; version=0.0.4; charset=utf-8';

type Kind = 'gauge' | 'counter';
/** One metric family: its header, then its samples appended as the streams are walked. */
interface Family {
  name: string;
  head: string;
  body: string;
}

const family = (name: string, kind: Kind, help: string): Family => ({
  name,
  head: `# HELP ${name} ${help}\n# TYPE ${name} ${kind}\n`,
  body: '',
});

/** Per-stream families, in the order they are printed; each filled in the one walk of the streams. */
function streamFamilies() {
  return {
    alive: family('sluice_stream_alive', 'gauge', '1 while the stream receives media from its source.'),
    inRate: family(
      'sluice_stream_input_bytes_per_second',
      'gauge',
      'Input rate of the stream (times 8 for its bitrate), measured over the last seconds.',
    ),
    outRate: family(
      'sluice_stream_output_bytes_per_second',
      'gauge',
      "Rate sent to the stream's clients, measured over the last seconds.",
    ),
    clients: family('sluice_stream_clients', 'gauge', 'Play sessions open on the stream.'),
    inBytes: family(
      'sluice_stream_input_bytes_total',
      'counter',
      'Bytes received from the source since the stream started.',
    ),
    outBytes: family(
      'sluice_stream_output_bytes_total',
      'counter',
      'Bytes sent to clients since the stream started.',
    ),
    retries: family(
      'sluice_stream_retries_total',
      'counter',
      'Source restarts after failures since the stream started.',
    ),
    sourceError: family(
      'sluice_stream_source_error',
      'gauge',
      '1 while the source (or its transcoder) reports an error.',
    ),
    dvrBytes: family('sluice_stream_dvr_bytes', 'gauge', "Disk space the stream's DVR archive takes."),
    dvrDepth: family(
      'sluice_stream_dvr_depth_seconds',
      'gauge',
      'Age of the oldest moment the DVR archive keeps.',
    ),
    pushState: family(
      'sluice_push_state',
      'gauge',
      "State of each push of a stream (push = its position in the stream's list): 1 for the current state.",
    ),
    pushRetries: family('sluice_push_retries_total', 'counter', 'Restarts of a push after failures.'),
    pushBytes: family(
      'sluice_push_bytes_total',
      'counter',
      'Bytes handed to a push since the stream started.',
    ),
  };
}

const PUSH_STATES: readonly PushStats['status'][] = ['starting', 'running', 'retrying', 'unsupported'];

/** A label value as the format wants it: backslash, double quote and newline escaped. */
export function escapeLabel(value: string): string {
  return /[\\"\n]/.test(value) ? value.replace(/[\\"\n]/g, (c) => (c === '\n' ? '\\n' : `\\${c}`)) : value;
}

/** Numbers as the format writes them; NaN and infinities have names of their own. */
function num(value: number): string {
  if (Number.isFinite(value)) return String(value);
  return Number.isNaN(value) ? 'NaN' : value > 0 ? '+Inf' : '-Inf';
}

export interface MetricsSources {
  /** The live view's snapshot: `stats` (server totals) and each stream's `stats`. */
  view: Record<string, unknown>;
  /** The latest system sample; undefined leaves the machine figures out. */
  system: SystemSample | undefined;
}

type Items = Record<string, { stats?: StreamStats; streams?: Items } | undefined>;

/**
 * The scrape, built in one walk of the streams: each stream's label is made once and every family
 * appends its line to its own buffer (V8 keeps appended strings as ropes, flattened once at the end),
 * so 20,000 streams cost a string per line and nothing per family.
 */
export function metricsText({ view, system }: MetricsSources): string {
  const f = streamFamilies();
  const walk = (items: Items | undefined) => {
    if (!items) return;
    for (const key in items) {
      const stats = items[key]?.stats;
      const label = `{stream="${escapeLabel(key)}"}`;
      f.alive.body += `sluice_stream_alive${label} ${stats?.alive === true ? 1 : 0}\n`;
      f.clients.body += `sluice_stream_clients${label} ${stats?.client_count ?? 0}\n`;
      f.inRate.body += `sluice_stream_input_bytes_per_second${label} ${(stats?.bitrate ?? 0) * 125}\n`;
      f.outRate.body += `sluice_stream_output_bytes_per_second${label} ${(stats?.out_bandwidth ?? 0) * 125}\n`;
      f.sourceError.body += `sluice_stream_source_error${label} ${stats?.source_error === undefined ? 0 : 1}\n`;
      // Counters exist once the stream has run: an on-demand stream never opened has none.
      if (stats?.bytes_in !== undefined)
        f.inBytes.body += `sluice_stream_input_bytes_total${label} ${stats.bytes_in}\n`;
      if (stats?.bytes_out !== undefined)
        f.outBytes.body += `sluice_stream_output_bytes_total${label} ${stats.bytes_out}\n`;
      if (stats?.retry_count !== undefined)
        f.retries.body += `sluice_stream_retries_total${label} ${stats.retry_count}\n`;
      const dvr = stats?.dvr_info;
      if (dvr?.disk_size !== undefined)
        f.dvrBytes.body += `sluice_stream_dvr_bytes${label} ${dvr.disk_size}\n`;
      if (dvr?.depth !== undefined)
        f.dvrDepth.body += `sluice_stream_dvr_depth_seconds${label} ${dvr.depth}\n`;
      const pushes = stats?.pushes;
      if (pushes) pushLines(f, label, pushes);
    }
  };
  walk(view.streams as Items | undefined);
  // Published streams of a location, mirrored streams of a source: keyed by their full names.
  for (const section of [view.lives, view.sources] as (Items | undefined)[])
    for (const key in section) walk(section[key]?.streams);

  let out = serverLines(view.stats as ServerStats | undefined);
  if (system) out += systemLines(system);
  for (const fam of Object.values(f)) if (fam.body) out += fam.head + fam.body;
  return out;
}

function pushLines(f: ReturnType<typeof streamFamilies>, label: string, pushes: readonly PushStats[]): void {
  const base = label.slice(0, -1);
  for (let i = 0; i < pushes.length; i++) {
    const p = pushes[i]!;
    const l = `${base},push="${i}"`;
    for (const state of PUSH_STATES)
      f.pushState.body += `sluice_push_state${l},state="${state}"} ${p.status === state ? 1 : 0}\n`;
    f.pushRetries.body += `sluice_push_retries_total${l}} ${p.retries}\n`;
    f.pushBytes.body += `sluice_push_bytes_total${l}} ${p.bytes}\n`;
  }
}

function gauge(name: string, help: string, value: number, kind: Kind = 'gauge'): string {
  return `# HELP ${name} ${help}\n# TYPE ${name} ${kind}\n${name} ${num(value)}\n`;
}

function serverLines(stats: ServerStats | undefined): string {
  if (!stats) return '';
  return (
    `# HELP sluice_build_info The server's version; the value is always 1.\n# TYPE sluice_build_info gauge\n` +
    `sluice_build_info{version="${escapeLabel(stats.version)}"} 1\n` +
    gauge('sluice_uptime_seconds', 'Time since the server started.', stats.uptime) +
    gauge('sluice_input_bytes_per_second', 'Input rate of all streams.', stats.input_kbit * 125) +
    gauge('sluice_output_bytes_per_second', 'Rate sent to all clients.', stats.output_kbit * 125) +
    gauge('sluice_clients', 'Play sessions open on all streams.', stats.total_clients) +
    gauge('sluice_streams', 'Streams configured, published and mirrored.', stats.total_streams) +
    gauge('sluice_streams_online', 'Streams receiving media now.', stats.online_streams) +
    gauge('sluice_opened_files', 'VOD files open for playback.', stats.opened_files)
  );
}

function systemLines(s: SystemSample): string {
  let out =
    gauge(
      'sluice_machine_cpu_usage_ratio',
      "Busy share of all the machine's cores (0..1).",
      s.cpu_usage / 100,
    ) +
    gauge(
      'sluice_server_cpu_usage_ratio',
      'Share of all cores used by the server process and its ffmpeg children (0..1).',
      s.server_cpu_usage / 100,
    ) +
    gauge(
      'sluice_machine_memory_available_bytes',
      'Memory available to new work (MemAvailable).',
      s.total_memavail,
    ) +
    gauge('sluice_machine_memory_used_bytes', 'Memory in use: total less available.', s.total_memused) +
    gauge('sluice_server_resident_memory_bytes', 'Resident memory of the server process.', s.server_memused) +
    gauge(
      'sluice_event_loop_utilization_ratio',
      "Share of the last second the server's event loop spent running callbacks (0..1).",
      s.event_loop_utilization,
    ) +
    gauge(
      'sluice_event_loop_lag_seconds',
      'Mean lateness of the event loop over the last second.',
      s.event_loop_lag_ms / 1000,
    ) +
    gauge(
      'sluice_event_loop_lag_max_seconds',
      'Largest lateness of the event loop over the last second.',
      s.event_loop_lag_max_ms / 1000,
    ) +
    gauge(
      'sluice_active_handles',
      'Handles (sockets, timers, servers) keeping the event loop alive.',
      s.active_handles,
    ) +
    gauge(
      'sluice_active_requests',
      'Operations in flight (file system, DNS, socket writes).',
      s.active_requests,
    );
  if (s.disk_io_usage.length > 0) {
    out +=
      '# HELP sluice_disk_io_busy_ratio Share of the last second each disk had I/O in flight (0..1).\n' +
      '# TYPE sluice_disk_io_busy_ratio gauge\n';
    for (const d of s.disk_io_usage)
      out += `sluice_disk_io_busy_ratio{disk="${escapeLabel(d.disk)}"} ${num(d.usage / 100)}\n`;
  }
  if (s.partitions.length > 0) {
    let size = '';
    let avail = '';
    for (const p of s.partitions) {
      const label = `{path="${escapeLabel(p.path)}"}`;
      size += `sluice_filesystem_size_bytes${label} ${p.total_bytes}\n`;
      avail += `sluice_filesystem_avail_bytes${label} ${p.free_bytes}\n`;
    }
    out +=
      '# HELP sluice_filesystem_size_bytes Size of each filesystem the config uses (config, DVR and VOD folders).\n' +
      `# TYPE sluice_filesystem_size_bytes gauge\n${size}` +
      '# HELP sluice_filesystem_avail_bytes Space left to the server on each filesystem the config uses.\n' +
      `# TYPE sluice_filesystem_avail_bytes gauge\n${avail}`;
  }
  return out;
}
