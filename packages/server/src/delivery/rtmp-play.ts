import Flv from 'node-media-server/src/protocol/flv.js';
import Rtmp from 'node-media-server/src/protocol/rtmp.js';
import type { AVPacket } from 'node-media-server/src/core/avpacket.js';
import { authorizedSession, type MaybePromise, type SessionOrRefusal } from '../auth/play-gate.js';
import type { PlayAuth } from '../auth/play-auth.js';
import type { Engine } from '../engine/engine.js';
import { flvOutArgs } from '../engine/ffmpeg/output-args.js';
import { Supervisor } from '../engine/ffmpeg/supervisor.js';
import type { PlayHandler, PlaySession, PublishRequest } from '../ingest/rtmp/rtmp-server.js';
import type { PacketBus } from '../media/packet-bus.js';
import { prepushStart } from '../media/prepush.js';
import type { ClientSession, ClientSessions } from './client-sessions.js';
import { protocolAllowed } from './protocols.js';

export interface RtmpPlayDeps {
  engine: Engine;
  sessions: ClientSessions;
  /** Play authorization, as for HTTP playback. */
  auth: PlayAuth;
  /** Streams whose output is encrypted (HLS only): refused here. */
  encrypted: (name: string) => boolean;
  ffmpegPath: string;
  env: NodeJS.ProcessEnv;
}

type Send = (message: Buffer) => boolean;

interface Feed {
  bus: PacketBus;
  remux: Supervisor;
  unsubscribe: () => void;
  /** Each player's send, and the way to cut it off. */
  players: Map<Send, () => void>;
  /** What a player joining now needs first: metadata, codec headers, the GOPs of the prepush. */
  metadata: Buffer | undefined;
  audioHeader: Buffer | undefined;
  videoHeader: Buffer | undefined;
  /** Whole GOPs reaching the stream's prepush back (the last one alone without prepush), oldest first. */
  gops: { startMs: number; messages: Buffer[] }[];
  prepushMs: () => number;
}

/** A GOP longer than this many messages is not cached (a source without keyframes). */
const MAX_GOP_MESSAGES = 4096;
/** All cached GOPs together hold at most this many messages (a long prepush of a busy stream). */
const MAX_CACHED_MESSAGES = 16_384;

/**
 * RTMP play (spec 000 §9: rtmp /static/{name}): per stream with players, an ffmpeg repackages the
 * packet bus to FLV; its tags become RTMP messages, built once and written to every player. A new
 * player gets the metadata, the codec headers and the GOPs reaching the stream's prepush back (the
 * current GOP alone with `prepush false`) first, so it starts on a keyframe with a full buffer.
 */
export class RtmpPlayers {
  private readonly feeds = new Map<string, Feed>();

  private readonly watcher: NodeJS.Timeout;

  constructor(private readonly deps: RtmpPlayDeps) {
    // A stream restarted or stopped has a new bus (or none): its players are cut off and reconnect.
    this.watcher = setInterval(() => {
      for (const [name, feed] of this.feeds) {
        if (this.deps.engine.get(name)?.bus === feed.bus) continue;
        for (const disconnect of feed.players.values()) disconnect();
        void this.stopFeed(name, feed);
      }
    }, 1000);
    this.watcher.unref();
  }

  readonly handler: PlayHandler = (request, send, disconnect) => this.play(request, send, disconnect);

  close(): Promise<void> {
    clearInterval(this.watcher);
    return Promise.all([...this.feeds.keys()].map((name) => this.stopFeed(name))).then(() => undefined);
  }

  private play(
    request: PublishRequest,
    send: Send,
    disconnect: () => void,
  ): MaybePromise<PlaySession | { refused: string }> {
    const name = request.app === 'static' ? request.name : `${request.app}/${request.name}`;
    const known = this.deps.engine.get(name);
    if (!known) return { refused: `no stream ${name}` };
    if (!protocolAllowed(known.spec.protocols, 'rtmp'))
      return { refused: `rtmp is switched off for stream ${name}` };
    if (this.deps.encrypted(name))
      return { refused: `stream ${name} is encrypted (drm aes128): only HLS is served` };
    const who = {
      stream: name,
      type: 'rtmp' as const,
      ip: request.remoteAddress,
      userAgent: '',
      token: request.query.token,
    };
    const session = authorizedSession(
      this.deps.auth,
      this.deps.sessions,
      { ...who, referer: undefined },
      known.spec.maxSessions,
      // An allowed player wakes an on-demand stream; it tries again once the stream runs.
      () => (this.deps.engine.touch(name)?.bus ? undefined : { refused: `no running stream ${name}` }),
    );
    return session instanceof Promise
      ? session.then((s) => this.start(name, s, send, disconnect))
      : this.start(name, session, send, disconnect);
  }

  /** An authorized player: fed from the stream's bus, if the stream still runs. */
  private start(
    name: string,
    session: SessionOrRefusal,
    send: Send,
    disconnect: () => void,
  ): PlaySession | { refused: string } {
    if ('refused' in session) return session;
    const bus = this.deps.engine.get(name)?.bus;
    if (!bus) return { refused: `stream ${name} stopped` };
    return this.feedPlayer(name, bus, session, send, disconnect);
  }

  private feedPlayer(
    name: string,
    bus: PacketBus,
    session: ClientSession,
    send: Send,
    disconnect: () => void,
  ): PlaySession {
    session.openResponses++;
    const counted: Send = (message) => {
      // Closed by the operator (close_sessions): the player is cut off.
      if (this.deps.sessions.isClosed(session)) {
        disconnect();
        return false;
      }
      const ok = send(message);
      if (ok) this.deps.sessions.sent(session, message.length, Date.now());
      return ok;
    };
    const feed = this.feedFor(name, bus);
    for (const message of [feed.metadata, feed.audioHeader, feed.videoHeader]) if (message) counted(message);
    for (const gop of feed.gops) for (const message of gop.messages) counted(message);
    feed.players.set(counted, disconnect);
    return {
      stop: () => {
        session.openResponses--;
        feed.players.delete(counted);
        if (feed.players.size === 0) void this.stopFeed(name, feed);
      },
    };
  }

  private feedFor(name: string, bus: PacketBus): Feed {
    const existing = this.feeds.get(name);
    if (existing?.bus === bus && existing.remux.state === 'running') return existing;
    if (existing) void this.stopFeed(name, existing);
    const parser = new Flv();
    const remux = new Supervisor({
      binary: this.deps.ffmpegPath,
      args: flvOutArgs(),
      env: this.deps.env,
      withStdin: true,
      restart: false,
      logLines: 20,
      onStdout: (chunk) => parser.parserData(chunk),
    });
    remux.start();
    const write = (chunk: Buffer) => remux.stdin?.write(chunk);
    const prepushSeconds = () => this.deps.engine.get(name)?.spec.prepushSeconds ?? 0;
    // The remux starts with the prepush's seconds, so the first player has them at once too.
    for (const part of prepushStart(bus.segmenter, prepushSeconds())) write(part);
    const feed: Feed = {
      bus,
      remux,
      unsubscribe: bus.subscribe(write),
      players: new Map(),
      metadata: undefined,
      audioHeader: undefined,
      videoHeader: undefined,
      gops: [],
      prepushMs: () => prepushSeconds() * 1000,
    };
    parser.onPacketCallback = (packet) => this.onPacket(feed, packet);
    this.feeds.set(name, feed);
    return feed;
  }

  private onPacket(feed: Feed, packet: AVPacket): void {
    // The parser reuses its buffer: the message must be built before the next tag is read.
    const message = Buffer.from(Rtmp.createMessage(packet));
    switch (kindOf(packet)) {
      case 'metadata':
        feed.metadata = message;
        break;
      case 'audio-header':
        feed.audioHeader = message;
        break;
      case 'video-header':
        feed.videoHeader = message;
        break;
      case 'keyframe':
        feed.gops.push({ startMs: packet.dts, messages: [message] });
        trimGops(feed.gops, packet.dts - feed.prepushMs());
        break;
      default: {
        const gop = feed.gops.at(-1);
        if (gop && gop.messages.length < MAX_GOP_MESSAGES) gop.messages.push(message);
      }
    }
    for (const send of feed.players.keys()) if (!send(message)) feed.players.delete(send);
  }

  private async stopFeed(name: string, feed = this.feeds.get(name)): Promise<void> {
    if (!feed) return;
    if (this.feeds.get(name) === feed) this.feeds.delete(name);
    feed.unsubscribe();
    feed.remux.stdin?.end();
    await feed.remux.stop();
  }
}

/** Drops the oldest GOPs while the next one already starts at or before `fromMs` (or too much is held). */
function trimGops(gops: { startMs: number; messages: Buffer[] }[], fromMs: number): void {
  let held = gops.reduce((n, g) => n + g.messages.length, 0);
  while (gops.length > 1 && (gops[1]!.startMs <= fromMs || held > MAX_CACHED_MESSAGES)) {
    held -= gops.shift()!.messages.length;
  }
}

/** What an FLV tag is (FLV spec §E.4): codec headers and keyframes matter to a joining player. */
function kindOf(packet: AVPacket): 'metadata' | 'audio-header' | 'video-header' | 'keyframe' | 'frame' {
  const data = packet.data;
  if (packet.codec_type === 18) return 'metadata';
  // AAC (sound format 10) with AACPacketType 0 is the AudioSpecificConfig.
  if (packet.codec_type === 8) return data[0]! >> 4 === 10 && data[1] === 0 ? 'audio-header' : 'frame';
  // AVC: AVCPacketType 0 is the decoder configuration; frame type 1 is a keyframe.
  if (data[1] === 0) return 'video-header';
  return data[0]! >> 4 === 1 ? 'keyframe' : 'frame';
}
