import type { PushStats, ServerStats, StreamStats } from '@sluice/api';
import { MetricsBuffer } from './metrics-buffer.js';
import type { SystemSample } from './system-samplers.js';

/** The Content-Type of the Prometheus text exposition format this builds. */
export const PROMETHEUS_TEXT = 'text/plain; version=0.0.4; charset=utf-8';

type Kind = 'gauge' | 'counter';
/** One metric family: its header, then its samples appended as the streams are walked. */
interface Family {
  head: string;
  name: Buffer;
  out: MetricsBuffer;
}

const family = (name: string, kind: Kind, help: string): Family => ({
  head: `# HELP ${name} ${help}\n# TYPE ${name} ${kind}\n`,
  name: Buffer.from(name),
  out: new MetricsBuffer(),
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

const CLOSE = Buffer.from('}');

export interface MetricsSources {
  /** The live view's snapshot: `stats` (server totals) and each stream's `stats`. */
  view: Record<string, unknown>;
  /** The latest system sample; undefined leaves the machine figures out. */
  system: SystemSample | undefined;
}

type Items = Record<string, { stats?: StreamStats; streams?: Items } | undefined>;

/**
 * The scrape, built in one walk of the streams: each stream's label is written once into a scratch
 * buffer and copied as bytes into the line of every family (each family its own buffer), so a line
 * costs no string but its number (metrics-buffer.ts says why).
 */
export function metricsBody({ view, system }: MetricsSources): Buffer {
  const f = streamFamilies();
  const label = new MetricsBuffer();
  const line = (fam: Family, value: number) =>
    fam.out.bytes(fam.name).copyFrom(label, 0, label.length).bytes(CLOSE).value(value);
  const walk = (items: Items | undefined) => {
    if (!items) return;
    for (const key in items) {
      const stats = items[key]?.stats;
      label.length = 0;
      // The label without its closing brace: push lines add their own labels after it.
      label.text('{stream="').text(escapeLabel(key)).text('"');
      line(f.alive, stats?.alive === true ? 1 : 0);
      line(f.clients, stats?.client_count ?? 0);
      line(f.inRate, (stats?.bitrate ?? 0) * 125);
      line(f.outRate, (stats?.out_bandwidth ?? 0) * 125);
      line(f.sourceError, stats?.source_error === undefined ? 0 : 1);
      if (!stats) continue;
      // Counters exist once the stream has run: an on-demand stream never opened has none.
      if (stats.bytes_in !== undefined) line(f.inBytes, stats.bytes_in);
      if (stats.bytes_out !== undefined) line(f.outBytes, stats.bytes_out);
      if (stats.retry_count !== undefined) line(f.retries, stats.retry_count);
      const dvr = stats.dvr_info;
      if (dvr?.disk_size !== undefined) line(f.dvrBytes, dvr.disk_size);
      if (dvr?.depth !== undefined) line(f.dvrDepth, dvr.depth);
      const pushes = stats.pushes;
      if (pushes) pushLines(f, label, pushes);
    }
  };
  walk(view.streams as Items | undefined);
  // Published streams of a location, mirrored streams of a source: keyed by their full names.
  for (const section of [view.lives, view.sources] as (Items | undefined)[])
    for (const key in section) walk(section[key]?.streams);

  let head = serverLines(view.stats as ServerStats | undefined);
  if (system) head += systemLines(system);
  const parts: Buffer[] = [Buffer.from(head)];
  for (const fam of Object.values(f))
    if (fam.out.length > 0) parts.push(Buffer.from(fam.head), fam.out.view());
  return Buffer.concat(parts);
}

function pushLines(
  f: ReturnType<typeof streamFamilies>,
  label: MetricsBuffer,
  pushes: readonly PushStats[],
): void {
  for (let i = 0; i < pushes.length; i++) {
    const p = pushes[i]!;
    const start = (fam: Family) => fam.out.bytes(fam.name).copyFrom(label, 0, label.length);
    for (const state of PUSH_STATES)
      start(f.pushState)
        .text(`,push="${i}",state="${state}"}`)
        .value(p.status === state ? 1 : 0);
    start(f.pushRetries).text(`,push="${i}"}`).value(p.retries);
    start(f.pushBytes).text(`,push="${i}"}`).value(p.bytes);
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
