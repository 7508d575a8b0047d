import type { MediaInfo } from '@sluice/api';
import { protocolAllowed } from '../delivery/protocols.js';
import type { DvrInfo } from './stream-archive.js';

/**
 * /{name}/info.json: what Flussonic's players ask about a stream before playing it (the DVR player
 * asks on load, then every 5 s). The player reads `stats.status` ("running" = live is there to
 * play), `stats.dvr_enabled` (false hides the archive), `protocols.mseld` (false: it does not try
 * the MSE-LD websocket, which Sluice does not serve) — so those are answered in Flussonic's shape,
 * with the stream's media_info and, with DVR, its dvr_info (seconds, as in stream stats).
 */
export interface StreamInfoFacts {
  running: boolean;
  mediaInfo?: MediaInfo;
  protocols?: Readonly<Record<string, boolean>>;
}

export function streamInfoJson(
  name: string,
  stream: StreamInfoFacts | undefined,
  dvr: { enabled: boolean; info?: DvrInfo },
): Record<string, unknown> {
  const mediaInfo = stream?.running ? stream.mediaInfo : undefined;
  // A stream counts as alive once the engine knows its tracks: its source is delivering.
  const alive = (mediaInfo?.tracks.length ?? 0) > 0;
  const status = alive ? 'running' : stream?.running ? 'starting' : 'stopped';
  const stats: Record<string, unknown> = { status, alive, dvr_enabled: dvr.enabled };
  if (mediaInfo) stats.media_info = mediaInfo;
  if (dvr.info) stats.dvr_info = dvr.info;
  const allowed = (protocol: string) => protocolAllowed(stream?.protocols, protocol);
  return {
    name,
    stats,
    protocols: { hls: allowed('hls'), dash: allowed('dash'), mpegts: allowed('mpegts'), mseld: false },
  };
}
