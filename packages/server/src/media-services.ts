import type { ChangeScope } from './config/store.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Config } from '@sluice/api';
import { ClientSessions } from './delivery/client-sessions.js';
import { DashPackagers } from './delivery/dash-packager.js';
import { PLAYBACK_OUTPUTS, playbackHandler } from './delivery/playback.js';
import { RtmpPlayers } from './delivery/rtmp-play.js';
import { Thumbnails } from './delivery/thumbnails.js';
import { Engine } from './engine/engine.js';
import { childEnv, killLeftovers, ownerMark } from './engine/ffmpeg/leftovers.js';
import { PublishSlots } from './engine/publish-slots.js';
import { RtmpPort } from './ingest/rtmp/rtmp-port.js';
import type { EventsHub } from './http/events-hub.js';
import { registerMediaTopics } from './http/media-topics.js';
import type { LiveView } from './live/live-view.js';
import { TrafficHistory } from './pulse/traffic-history.js';
import type { Logger } from './support/log.js';

export interface MediaOptions {
  view: LiveView;
  hub: EventsHub;
  log: Logger;
  /** The config file's absolute path: it names this server's ffmpeg children. */
  configPath: string;
  /** Address the RTMP listener binds. */
  host: string;
  ffmpegPath?: string;
}

/**
 * The media side of the server, built in one place for main.ts: the engine (streams), client
 * sessions, the outputs (HLS, MPEG-TS, DASH, RTMP play, previews) and the RTMP listener.
 */
export async function startMedia(options: MediaOptions) {
  const { view, log } = options;
  const ffmpegPath = options.ffmpegPath ?? 'ffmpeg';
  // ffmpeg children of a previous run that died without stopping them are ended first.
  const owner = ownerMark(options.configPath);
  const leftovers = await killLeftovers(owner);
  if (leftovers.length > 0)
    log.notice(`stopped ${leftovers.length} ffmpeg process(es) left by a previous run`);
  const env = childEnv(owner);

  const clients = new ClientSessions();
  const traffic = new TrafficHistory();
  const engine = new Engine({
    view,
    log,
    clients,
    sources: { ffmpegPath, childEnv: env, slots: new PublishSlots() },
    onStats: (name, stats, now) => traffic.sample(name, stats.bitrate ?? 0, stats.out_bandwidth ?? 0, now),
  });
  registerMediaTopics(options.hub, engine, clients, traffic);
  const dash = new DashPackagers({ root: join(tmpdir(), `sluice-dash-${owner}`), ffmpegPath, env });
  const thumbnails = new Thumbnails({ engine, ffmpegPath, env });
  const players = new RtmpPlayers({ engine, sessions: clients, ffmpegPath, env });
  const rtmp = new RtmpPort((request) => engine.acceptPublish(request), log, options.host, players.handler);

  return {
    engine,
    clients,
    /** Output protocols served, for server info. */
    outputs: [...PLAYBACK_OUTPUTS] as string[],
    playback: playbackHandler({ engine, sessions: clients, dash, thumbnails }),
    /** close_sessions: ends these sessions; their next requests are refused. */
    closeSessions: (ids: readonly string[]) => clients.close(ids, Date.now()),
    /** Follows the config: streams, and the RTMP port. */
    apply: async (config: Config, scope?: ChangeScope) => {
      // An edit of some streams' fields (the common case) names them; anything else reconciles all.
      const streams = scope ? (scope.get('streams') ?? []) : 'all';
      engine.apply(config, streams === 'all' ? undefined : streams);
      if (streams === 'all') traffic.retain(new Set([...engine.runtimes()].map((r) => r.name)));
      await rtmp.apply(config.rtmp);
    },
    close: async () => {
      await rtmp.close();
      await Promise.all([players.close(), dash.close(), thumbnails.close()]);
      await engine.close();
      clients.stop();
    },
  };
}
