import { createSocket, type Socket } from 'node:dgram';
import { head } from '../engine/ffmpeg/common-args.js';
import { Supervisor } from '../engine/ffmpeg/supervisor.js';

/** Opus bit rate for WebRTC viewers: stereo music at a transparent rate. */
const OPUS_BITRATE_KBPS = 96;
/** The payload type ffmpeg writes; each viewer's sender rewrites it to the one its offer chose. */
export const FEED_OPUS_PT = 111;

/**
 * ffmpeg turning the stream's audio (AAC, MP2, AC-3… in the MPEG-TS of the packet bus, on stdin)
 * into Opus RTP to a local UDP port: browsers take no AAC over WebRTC. One per stream, shared by
 * all its WebRTC viewers.
 */
export function opusFeedArgs(rtpPort: number, rtcpPort: number): string[] {
  return [
    ...head(),
    // Start at once: probing the whole default 5 s (analyzeduration) would delay the first audio.
    '-probesize',
    '200000',
    '-analyzeduration',
    '500000',
    '-fflags',
    'nobuffer',
    '-f',
    'mpegts',
    '-i',
    'pipe:0',
    '-map',
    '0:a:0',
    '-vn',
    '-c:a',
    'libopus',
    '-b:a',
    `${OPUS_BITRATE_KBPS}k`,
    // WebRTC's Opus is 48 kHz and signalled as 2 channels whatever it carries (RFC 7587 §7).
    '-ar',
    '48000',
    '-ac',
    '2',
    // 20 ms frames with the low-delay mode: less algorithmic delay than the default audio mode.
    '-application',
    'lowdelay',
    '-frame_duration',
    '20',
    '-payload_type',
    String(FEED_OPUS_PT),
    '-f',
    'rtp',
    // RTCP to a port of ours that reads and drops it: none is needed, and none should hit a closed port.
    `rtp://127.0.0.1:${rtpPort}?pkt_size=1200&rtcpport=${rtcpPort}`,
  ];
}

export interface OpusFeedOptions {
  ffmpegPath: string;
  env: NodeJS.ProcessEnv;
  /** Each RTP packet ffmpeg sends (a whole datagram). */
  onPacket: (datagram: Buffer) => void;
  log: (line: string) => void;
}

/** The running feed: its ffmpeg and the two sockets it sends to. */
export class OpusFeed {
  private readonly rtp: Socket = createSocket('udp4');
  private readonly rtcp: Socket = createSocket('udp4');
  private ffmpeg: Supervisor | undefined;
  private closed = false;

  private constructor(private readonly options: OpusFeedOptions) {}

  /** Binds the sockets and starts ffmpeg; `prime` gives what ffmpeg reads first (tables, the open GOP). */
  static async start(options: OpusFeedOptions, prime: () => Buffer[]): Promise<OpusFeed> {
    const feed = new OpusFeed(options);
    await Promise.all([bindLocal(feed.rtp), bindLocal(feed.rtcp)]);
    feed.rtp.on('message', (datagram) => options.onPacket(datagram));
    feed.rtcp.on('message', () => undefined);
    if (feed.closed) return feed;
    feed.ffmpeg = new Supervisor({
      binary: options.ffmpegPath,
      args: opusFeedArgs(feed.rtp.address().port, feed.rtcp.address().port),
      env: options.env,
      withStdin: true,
      restartDelayMs: 1000,
      maxRestartDelayMs: 10_000,
      logLines: 20,
      onStdout: () => undefined,
      onLine: (line) => /\[(error|fatal)\]/.test(line) && options.log(`webrtc audio: ${line}`),
      onStateChange: (to) => {
        if (to !== 'running') return;
        const stdin = feed.ffmpeg?.stdin;
        if (stdin) for (const part of prime()) stdin.write(part);
      },
    });
    feed.ffmpeg.start();
    return feed;
  }

  /** MPEG-TS from the bus; dropped while ffmpeg is (re)starting or too far behind. */
  write(chunk: Buffer): void {
    const stdin = this.ffmpeg?.stdin as (NodeJS.WritableStream & { writableLength: number }) | undefined;
    if (chunk.length === 0) return;
    if (!stdin || this.ffmpeg?.state !== 'running' || stdin.writableLength > 4 * 1024 * 1024) return;
    stdin.write(chunk);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.ffmpeg?.stdin?.end();
    await this.ffmpeg?.stop();
    this.rtp.close();
    this.rtcp.close();
  }
}

function bindLocal(socket: Socket): Promise<void> {
  return new Promise((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(0, '127.0.0.1', () => {
      socket.off('error', reject);
      socket.on('error', () => undefined);
      resolve();
    });
  });
}
