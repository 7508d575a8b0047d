import type { SecureContext } from 'node:tls';
import type { ChangeScope } from './config/store.js';
import type { PublishRequest } from './ingest/rtmp/rtmp-server.js';
import { dirname, join } from 'node:path';
import { type Config, isPlainObject } from '@sluice/api';
import { AccessServices } from './auth/access-services.js';
import { authorizedPublish } from './auth/play-gate.js';
import { webrtcPublishGate } from './auth/webrtc-gate.js';
import { ClientSessions } from './delivery/client-sessions.js';
import { DashPackagers } from './delivery/dash-packager.js';
import { PLAYBACK_OUTPUTS, playbackHandler } from './delivery/playback.js';
import { RtmpPlayers } from './delivery/rtmp-play.js';
import { Thumbnails } from './delivery/thumbnails.js';
import { Mirrors } from './cluster/mirrors.js';
import { ClusterIngest } from './cluster/ingest/cluster-ingest.js';
import { hostname } from 'node:os';
import { DvrService } from './dvr/dvr-service.js';
import { ArchiveExports } from './dvr/archive-export.js';
import { archivePlaybackHandler, streamFacts } from './dvr/archive-handler.js';
import { Engine } from './engine/engine.js';
import { ffmpegSourceOpener } from './vod/ffmpeg-source.js';
import { openMp4Source } from './vod/mp4-source.js';
import { VodDash } from './vod/vod-dash.js';
import { VodPlayback } from './vod/vod-handler.js';
import { VodPreview } from './vod/vod-preview.js';
import { childEnv, killLeftovers, ownerMark } from './engine/ffmpeg/leftovers.js';
import { PublishSlots } from './engine/publish-slots.js';
import { RtmpPort } from './ingest/rtmp/rtmp-port.js';
import { RtspService } from './rtsp/rtsp-service.js';
import { webrtcSocketHandler } from './ingest/webrtc/webrtc-socket.js';
import { PublishSetups } from './ingest/webrtc/publish-setups.js';
import { whipHandler } from './ingest/webrtc/whip-handler.js';
import { whepHandler } from './webrtc/whep-handler.js';
import { WhepService } from './webrtc/whep-service.js';
import { tsPublishHandler } from './ingest/http-ts/ts-publish.js';
import { mssHandler } from './mss/mss-handler.js';
import { SrtPorts } from './srt/srt-ports.js';
import type { EventsHub } from './http/events-hub.js';
import { registerMediaTopics } from './http/media-topics.js';
import { getIn, type LiveView } from './live/live-view.js';
import { TrafficHistory } from './pulse/traffic-history.js';
import { pulseQueryTopic } from './pulse/pulse-http.js';
import { PulseService } from './pulse/pulse-service.js';
import type { SystemSampler } from './pulse/system-samplers.js';
import { logoDirOf } from './transcoder/logo-store.js';
import type { Logger } from './support/log.js';
import { privateScratchDir } from './support/scratch-dir.js';
import { AdStats, AD_STATS_FILE } from './ads/ad-stats.js';
import { AdConformer } from './ads/conform.js';
import { Scte35Streams } from './ads/scte35-streams.js';
import { AdInserter } from './ads/inserter.js';

export interface MediaOptions {
  view: LiveView;
  hub: EventsHub;
  log: Logger;
  /** The config file's absolute path: it names this server's ffmpeg children. */
  configPath: string;
  /** Address the RTMP listener binds. */
  host: string;
  /** The config at start: the Pulse store opens at its `pulsedb`. */
  config: Config;
  /** The machine and process figures Pulse records each second (shared with GET /metrics). */
  sampler?: SystemSampler;
  /** The certificate of the RTMPS and RTSPS ports, asked at each handshake (none: they stay closed). */
  secureContext?: (() => SecureContext) | undefined;
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

  // Play authorization, DRM, the session log and history (the data folder is the config's).
  const access = new AccessServices(dirname(options.configPath), log, () => view.snapshot);
  const clients = new ClientSessions(undefined, access.sessionHooks);
  access.watch(clients);
  // Pulse (pulse/): the server's totals and the machine each second, each stream's through `traffic`.
  const pulse = new PulseService(
    {
      configDir: dirname(options.configPath),
      log,
      totals: () => engine.traffic(),
      sampler: options.sampler,
    },
    options.config,
  );
  const traffic = new TrafficHistory(() => pulse.store);
  // Ads (ads/): show/view counts kept in the data folder; ad files conformed once into its cache.
  const adStats = new AdStats(join(dirname(options.configPath), AD_STATS_FILE), Date.now, (line) =>
    log.error(line),
  );
  const adConformer = new AdConformer(join(dirname(options.configPath), 'ad-cache'), { ffmpegPath, env });
  // DVR: archives read back at start, recorded from each stream's segments, shown in its stats.
  const dvr: DvrService = new DvrService({
    log,
    runtimes: () => engine.runtimes(),
    mirrorOf: (name) => mirrorShowing(view, name),
  });
  // Cluster ingest (cluster/ingest/): which server runs a `cluster_ingest` stream's sources.
  const ingest = new ClusterIngest({ engine: () => engine, view, log, machineHostname: hostname() });
  const engine: Engine = new Engine({
    view,
    log,
    specOf: (name, stream) => ingest.specOf(name, stream),
    clients,
    sources: { ffmpegPath, childEnv: env, slots: new PublishSlots(), logoDir: logoDirOf(options.configPath) },
    onStats: (name, stats, now) =>
      traffic.sample(name, stats.bitrate ?? 0, stats.out_bandwidth ?? 0, now, stats.client_count ?? 0),
    // The ad inserter is made below, before any stats are asked for. Undefined when neither has a
    // figure: a stopped stream with none stays quiet (engine.ts).
    moreStats: (name, now) => {
      const ads = adInserter.stats(name);
      const archive = dvr.stats(name, now);
      return ads && archive ? { ...archive, ...ads } : (ads ?? archive);
    },
    // Each published name stayed in both maps for good (a 34 KB traffic ring each, client totals).
    onRemoved: (name) => {
      clients.dropStream(name);
      traffic.forget(name);
    },
  });
  registerMediaTopics(options.hub, engine, clients, traffic, pulseQueryTopic(pulse));
  // SCTE-35 cues in the MPEG-TS sources of streams with an ad_schedule (ads/scte35-streams.ts).
  const adCues = new Scte35Streams(engine);
  // Ad slots: the streams' outputs switch to ad files and back (ads/inserter.ts), at a slot or a cue.
  const adInserter = new AdInserter({ engine, stats: adStats, conformer: adConformer, cues: adCues });
  pulse.start();
  // Streams of origin mirrors (config sources) run in the engine beside the configured ones.
  const mirrors = new Mirrors({ engine, view, log });
  // A private folder (mkdtemp, 0700): a fixed /tmp path could be taken or linked by another user first.
  const dashRoot = await privateScratchDir(`sluice-dash-${owner}`);
  const dash = new DashPackagers({ root: dashRoot, ffmpegPath, env });
  const thumbnails = new Thumbnails({ engine, ffmpegPath, env });
  pulse.watchThumbnailer(() => thumbnails.usage());
  // Archive MP4 exports are written to, and served from, a private folder of this run.
  const exportDir = await privateScratchDir(`sluice-dvr-export-${owner}`);
  const exports = new ArchiveExports({ scratchDir: exportDir, ffmpegPath, env });
  const encrypted = (name: string) => access.drm.encrypted(name);
  const players = new RtmpPlayers({
    engine,
    sessions: clients,
    auth: access.auth,
    encrypted,
    ffmpegPath,
    env,
  });
  // VOD files: MP4 and its kin through the MP4 reader, other files through ffmpeg (vod/).
  const vod = new VodPlayback({
    view,
    sessions: clients,
    auth: access.auth,
    openers: { mp4: openMp4Source, other: ffmpegSourceOpener({ ffmpegPath, env }) },
    formats: [new VodDash(), new VodPreview({ ffmpegPath, env })],
  });
  const acceptPublish = (request: PublishRequest) =>
    authorizedPublish(access.auth, request, () => engine.acceptPublish(request));
  // WebRTC publishes (WHIP and the websocket) share caps, checks and one publish per stream.
  const webrtcSetups = new PublishSetups({ ...webrtcPublishGate(access.auth, engine), ffmpegPath, env, log });
  const rtmp = new RtmpPort(acceptPublish, log, options.host, players.handler);
  // RTMPS: the same listener, limits and handlers, each peer's TLS handshake first.
  const { secureContext } = options;
  const rtmps = secureContext
    ? new RtmpPort(acceptPublish, log, options.host, players.handler, undefined, {
        name: 'rtmps',
        secureContext,
      })
    : undefined;
  // Streams' srt_publish / srt_play ports (srt/): libsrt listeners in ffmpeg behind a UDP relay.
  const srt = new SrtPorts({
    publish: acceptPublish,
    engine,
    sessions: clients,
    auth: access.auth,
    host: options.host,
    ffmpegPath,
    env,
    log,
  });
  // WHEP playback (webrtc/): one media pipeline per stream, its viewers through the play gate.
  const whep = new WhepService({
    engine,
    sessions: clients,
    auth: access.auth,
    encrypted,
    ffmpegPath,
    env,
    log: (line) => log.notice(line),
  });
  // RTSP publish and play (rtsp/): the RTMP publish path and the play gate.
  const rtsp = new RtspService({
    engine,
    sessions: clients,
    auth: access.auth,
    encrypted,
    publish: acceptPublish,
    host: options.host,
    log,
    secureContext,
  });

  return {
    engine,
    clients,
    /** Pulse: its store, notices and "Collecting statistics" state, the HTTP range call. */
    pulse,
    /** Stream archives (dvr/): archive(name) and dvrInfo(name) for archive playback. */
    dvr,
    /** Header notices for a media port (`rtmp`, `rtmps`, `rtsp`, `rtsps`) that can't be bound. */
    portNotices: (): Record<string, string> => ({
      ...rtmp.notices(),
      ...rtmps?.notices(),
      ...rtsp.notices(),
      ...srt.notices(),
    }),
    /** Header notice while the session log can't be opened or written (auth/access-services.ts). */
    sessionLogNotices: () => access.notices(),
    /** Cluster ingest: its state route for peers, header notices, the streams captured here. */
    ingest,
    /** Output protocols served, for server info. */
    outputs: [...PLAYBACK_OUTPUTS] as string[],
    playback: playbackHandler({
      engine,
      sessions: clients,
      dash,
      thumbnails,
      auth: access.auth,
      drm: access.drm,
      ads: adInserter,
      vod: vod.handler,
      // PUT/POST /{name}/mpegts: an HTTP MPEG-TS publish, by the RTMP listener's rules (ingest/http-ts).
      tsPublish: tsPublishHandler({ publish: acceptPublish, log }),
      // /{name}.isml/manifest and its fragments: Smooth Streaming (mss/), the play rules of HLS.
      mss: mssHandler({ engine, sessions: clients, auth: access.auth, drm: access.drm }),
      archive: archivePlaybackHandler({
        archive: (name) => dvr.archive(name),
        dvrInfo: (name) => dvr.dvrInfo(name),
        stream: streamFacts(engine),
        sessions: clients,
        auth: access.auth,
        encrypted,
        exports,
        ffmpegPath,
        env,
      }),
    }),
    /** WHIP publishing (POST /{name}/whip, PATCH/DELETE its session), on the plain request path too. */
    whip: whipHandler(webrtcSetups, log),
    /** WHEP playback (POST /{name}/whep, PATCH/DELETE its session, media_info.json). */
    whep: whepHandler(whep, (line) => log.notice(line)),
    /** Files with sessions now (server stats opened_files). */
    openedFiles: () => vod.openedCount,
    /** GET /flussonic/api/history. */
    history: access.history(traffic, clients),
    /** Ad counts (GET ad_streams) and ad files made to match a stream (ads/). */
    ads: { stats: adStats, conformer: adConformer, cues: adCues },
    /** The IPTV plugin's users (iptv/): its calls and playlists. */
    iptv: access.iptv,
    /** The console players' token (server info admin_token). */
    adminToken: () => access.secret.adminToken,
    /** The /webrtc/publish/{name} websocket: browsers publishing over WebRTC. */
    webrtcPublish: webrtcSocketHandler(webrtcSetups),
    /** close_sessions: ends these sessions; their next requests are refused. */
    closeSessions: (ids: readonly string[]) => clients.close(ids, Date.now()),
    /** Follows the config: streams, and the RTMP port. */
    apply: async (config: Config, scope?: ChangeScope) => {
      // An edit of some streams' fields (the common case) names them; anything else reconciles all.
      const streams = scope ? (scope.get('streams') ?? []) : 'all';
      access.apply(config);
      pulse.apply(config);
      vod.apply(config);
      ingest.apply(config, streams === 'all' ? undefined : streams);
      engine.apply(config, streams === 'all' ? undefined : streams);
      // A change of the schedules themselves looks at every stream; a stream edit at the ones it names.
      const adStreams = streams === 'all' || scope?.has('ad_schedules') ? undefined : streams;
      adInserter.apply(config, adStreams);
      adCues.apply(config, adStreams);
      mirrors.apply(config);
      const only = streams === 'all' ? undefined : streams;
      // DVR follows `dvrs`, locations and mirrors too: an edit there looks at every stream.
      await dvr.apply(config, ['dvrs', 'lives', 'sources'].some((k) => scope?.has(k)) ? undefined : only);
      if (streams === 'all') traffic.retain(new Set([...engine.runtimes()].map((r) => r.name)));
      await rtmp.apply(config.rtmp);
      await rtmps?.apply(config.rtmps);
      await srt.apply(config, only);
      await rtsp.apply(config.rtsp, config.rtsps);
    },
    close: async () => {
      whep.close();
      await rtmp.close();
      await rtmps?.close();
      await srt.close();
      await rtsp.close();
      await Promise.all([players.close(), dash.close(), thumbnails.close(), exports.close()]);
      mirrors.close();
      adInserter.close();
      adCues.close();
      // A conform under way is ended, not left to finish after the server (ads/conform.ts).
      adConformer.close();
      ingest.close();
      vod.close();
      await engine.close();
      await dvr.close();
      // After the engine: its last stats are in the store, written as it closes.
      pulse.close();
      clients.stop();
      access.close();
      adStats.close();
    },
  };
}

/** The mirror (its `sources` key) whose streams in the live view include `name`. */
function mirrorShowing(view: LiveView, name: string): string | undefined {
  const sources = getIn(view.snapshot, ['sources']);
  if (!isPlainObject(sources)) return undefined;
  for (const [position, mirror] of Object.entries(sources)) {
    const streams = isPlainObject(mirror) ? mirror.streams : undefined;
    if (isPlainObject(streams) && Object.hasOwn(streams, name)) return position;
  }
  return undefined;
}
