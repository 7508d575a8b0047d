import type { Config, Location, SourceEntry, Stream, Transcoder } from '@sluice/api';
import { orderSources } from './source-url.js';
import { locationSources } from './location-urls.js';

/** What the engine needs to run one stream, taken from its config entry. */
export interface StreamSpec {
  name: string;
  sources: SourceEntry[];
  static: boolean;
  disabled: boolean;
  sourceTimeoutSeconds: number;
  clientsTimeoutSeconds: number;
  segmentDurationMs: number;
  segmentCount: number;
  /** Publishers must give ?password= equal to this. */
  password: string | undefined;
  /** A publisher sending more than this (kbit/s) is disconnected. */
  maxBitrateKbps: number | undefined;
  /** A preview picture is made for each segment (thumbnails.enabled). */
  thumbnails: boolean;
  /** Where the stream is pushed to (pushes[].url). */
  pushes: string[];
  /** HTTP handler of publish starts and stops (on_publish). */
  onPublish: string | undefined;
  /** Output protocol switches (see delivery/protocols.ts). */
  protocols: Record<string, boolean> | undefined;
  /** Concurrent client sessions allowed (max_sessions, or auth.max_sessions); none: no limit. */
  maxSessions: number | undefined;
  /** The transcoder settings, when there are any (an empty object is the console's "disabled"). */
  transcoder?: Transcoder | undefined;
  /** tshttp pulls prove this cluster key to the server they pull from (cluster/proof.ts). */
  clusterKey?: string | undefined;
  /** Played in a loop while every source is down (backup: a file path, file:// or a source URL). */
  backup?: SourceEntry | undefined;
  /** Seconds of media a new MPEG-TS or RTMP player gets at once (prepush; 0 when false). */
  prepushSeconds?: number;
  /** An audio-only variant is listed in the HLS master playlist (add_audio_only). */
  addAudioOnly?: boolean;
}

/** Defaults where the config is silent (documented in docs/config.md). */
export const STREAM_DEFAULTS = {
  sourceTimeoutSeconds: 10,
  /** An on-demand stream stops this long after its last client. */
  clientsTimeoutSeconds: 30,
  segmentDurationMs: 2000,
  segmentCount: 4,
  /** Spec 001 §7: prepush 3 s when the config says nothing. */
  prepushSeconds: 3,
} as const;

export function streamSpec(name: string, stream: Stream): StreamSpec {
  const urls = (stream.urls ?? []) as SourceEntry[];
  // publish_enabled accepts publishers besides the urls (spec 000 §4 Publishing): a publish:// source last.
  const publish = stream.publish_enabled && !urls.some((u) => u.url.startsWith('publish://'));
  return {
    name,
    sources: orderSources(publish ? [...urls, { url: 'publish://' }] : urls),
    static: stream.static === true,
    disabled: stream.disabled === true,
    sourceTimeoutSeconds: stream.source_timeout ?? STREAM_DEFAULTS.sourceTimeoutSeconds,
    clientsTimeoutSeconds: stream.clients_timeout ?? STREAM_DEFAULTS.clientsTimeoutSeconds,
    segmentDurationMs: stream.segment_duration ?? STREAM_DEFAULTS.segmentDurationMs,
    segmentCount: stream.segment_count ?? STREAM_DEFAULTS.segmentCount,
    password: stream.password,
    maxBitrateKbps: stream.max_bitrate,
    thumbnails: stream.thumbnails?.enabled === true,
    pushes: (stream.pushes ?? []).map((p) => p.url),
    onPublish: stream.on_publish,
    protocols: stream.protocols,
    maxSessions: stream.max_sessions ?? stream.auth?.max_sessions,
    transcoder:
      stream.transcoder && Object.keys(stream.transcoder).length > 0 ? stream.transcoder : undefined,
    clusterKey: stream.cluster_key,
    backup: backupEntry(stream.backup),
    prepushSeconds: stream.prepush === false ? 0 : (stream.prepush ?? STREAM_DEFAULTS.prepushSeconds),
    addAudioOnly: stream.add_audio_only === true,
  };
}

/** A bare path is a file played in a loop (file:// URL); anything with a scheme is a source URL. */
export function backupEntry(backup: string | undefined): SourceEntry | undefined {
  const value = backup?.trim();
  if (!value) return undefined;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return { url: value };
  return { url: `file://${value.split('/').map(encodeURIComponent).join('/')}` };
}

/** A stream published into a location (spec 000 §3 Location): named PREFIX/NAME, always running while published. */
export function publishedSpec(name: string, location: Location, prefix?: string): StreamSpec {
  // The location's urls pull the stream for players; a publisher is taken when none feeds it.
  const pulled = prefix === undefined ? [] : locationSources(location, prefix, name);
  return {
    name,
    sources: [...pulled, { url: 'publish://' }],
    static: true,
    disabled: false,
    sourceTimeoutSeconds: location.source_timeout ?? STREAM_DEFAULTS.sourceTimeoutSeconds,
    clientsTimeoutSeconds: location.clients_timeout ?? STREAM_DEFAULTS.clientsTimeoutSeconds,
    segmentDurationMs: STREAM_DEFAULTS.segmentDurationMs,
    segmentCount: STREAM_DEFAULTS.segmentCount,
    password: location.password,
    maxBitrateKbps: undefined,
    thumbnails: location.thumbnails?.enabled === true,
    pushes: [],
    onPublish: typeof location.on_publish === 'string' ? location.on_publish : undefined,
    protocols: undefined,
    maxSessions: location.auth?.max_sessions,
  };
}

export function desiredStreams(config: Config): Map<string, StreamSpec> {
  const out = new Map<string, StreamSpec>();
  for (const [name, stream] of Object.entries(config.streams ?? {})) out.set(name, streamSpec(name, stream));
  return out;
}

/**
 * The part of a spec whose change needs the running stream restarted. static and clients_timeout
 * only change when an on-demand stream stops, so they apply without a restart; disabled is
 * handled as a start or stop of its own.
 */
export function restartKey(spec: StreamSpec): string {
  return JSON.stringify([
    spec.sources,
    spec.sourceTimeoutSeconds,
    spec.segmentDurationMs,
    spec.segmentCount,
    spec.password,
    spec.onPublish,
    spec.transcoder,
    spec.clusterKey,
    spec.backup,
  ]);
}

export type Action =
  { kind: 'create' | 'update' | 'restart'; spec: StreamSpec } | { kind: 'remove'; name: string };

/** What turns the running set into the desired one, touching only what changed. */
export function reconcile(
  running: ReadonlyMap<string, StreamSpec>,
  desired: ReadonlyMap<string, StreamSpec>,
): Action[] {
  const actions: Action[] = [];
  for (const name of running.keys()) if (!desired.has(name)) actions.push({ kind: 'remove', name });
  for (const [name, spec] of desired) {
    const current = running.get(name);
    if (!current) actions.push({ kind: 'create', spec });
    else if (restartKey(current) !== restartKey(spec)) actions.push({ kind: 'restart', spec });
    else if (JSON.stringify(current) !== JSON.stringify(spec)) actions.push({ kind: 'update', spec });
  }
  return actions;
}
