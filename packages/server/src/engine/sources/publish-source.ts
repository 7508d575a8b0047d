import type { PublishRequest } from '../../ingest/rtmp/rtmp-server.js';
import { flvRemuxArgs } from '../ffmpeg/args.js';
import { Supervisor } from '../ffmpeg/supervisor.js';
import type { PublishAnswer, PublishSlots } from '../publish-slots.js';
import { flvTagBytes } from '../../media/flv-tags.js';
import { FlvToTs } from '../../media/flv-to-ts.js';
import { callPublishHook } from './publish-hook.js';
import type { Source, SourceEvents } from './source.js';

export interface PublishSourceOptions {
  /** The stream published into. */
  name: string;
  /** A publisher must give ?password= equal to this, when set. */
  password: string | undefined;
  /** An HTTP handler asked on each publish start (it may refuse) and told of each stop. */
  onPublish: string | undefined;
  slots: PublishSlots;
  binary: string;
  env: NodeJS.ProcessEnv;
}

/**
 * publish:// — the stream's media comes from a publisher (RTMP now). While started, the source
 * holds the stream's publish slot; each publisher's FLV is repackaged to MPEG-TS in process (H.264
 * and AAC), or by ffmpeg for other codecs.
 * One publisher at a time: a second one is refused while the first is on.
 */
export class PublishSource implements Source {
  private closeSlot: (() => void) | undefined;
  private current: Publish | undefined;

  constructor(
    private readonly options: PublishSourceOptions,
    private readonly events: SourceEvents,
  ) {}

  start(): void {
    this.closeSlot ??= this.options.slots.open(this.options.name, (request) => this.accept(request));
  }

  async stop(): Promise<void> {
    this.closeSlot?.();
    this.closeSlot = undefined;
    this.current?.disconnect();
    await this.endPublish();
  }

  /** No publisher: silence is the normal state, not a failure. */
  get waiting(): boolean {
    return this.current === undefined;
  }

  /** Where the publisher connects from, and how (stats published_from, published_via). */
  get publishedFrom(): { from: string; via: string } | undefined {
    return this.current
      ? { from: this.current.request.remoteAddress, via: this.current.request.via ?? 'rtmp' }
      : undefined;
  }

  /** Disconnects the publisher (max_bitrate exceeded, on_publish refused, stream stopped). */
  kick(reason: string): void {
    if (!this.current) return;
    this.events.log(`publisher ${this.current.request.remoteAddress} disconnected: ${reason}`);
    this.current.disconnect();
    void this.endPublish();
  }

  private accept(request: PublishRequest): PublishAnswer {
    const { password } = this.options;
    if (password && request.query.password !== password) return { refused: 'wrong or missing password' };
    if (this.current) return { refused: `${this.options.name} is already being published` };
    const events = this.events;
    const current: Publish = {
      request,
      native: new FlvToTs((packets) => events.data(packets), { serviceName: this.options.name }),
      remux: undefined,
      disconnect: () => undefined,
    };
    this.current = current;
    this.events.log(`publish from ${request.remoteAddress} started`);
    const remuxFromNow = () => {
      this.events.log('codecs other than H.264 and AAC: ffmpeg remuxes this publish');
      current.remux = this.startRemux();
      current.remux.stdin?.write(current.native.takeHeld());
    };
    const hook = this.options.onPublish;
    if (hook) {
      // The publisher is taken at once (RTMP answers before the handler can) and let go if refused.
      void callPublishHook(hook, 'publish_start', this.options.name, request).then((refused) => {
        if (refused && this.current === current) this.kick(refused);
      });
    }
    return {
      attach: (disconnect) => {
        current.disconnect = disconnect;
      },
      write: (flv) => {
        if (this.current !== current) return;
        // MPEG-TS (HTTP, SRT publish) goes to the stream's demuxer as it is, like a UDP source's.
        if (request.format === 'mpegts') events.data(flv);
        else if (current.remux) current.remux.stdin?.write(flv);
        else if (current.native.push(flv) === 'unsupported') remuxFromNow();
      },
      // RTMP's messages, without building an FLV tag of each (see PublishSink.writeTag).
      writeTag: (type, timestampMs, body) => {
        if (this.current !== current) return;
        if (current.remux) current.remux.stdin?.write(flvTagBytes(type, timestampMs, body));
        else if (current.native.pushTag(type, timestampMs, body) === 'unsupported') remuxFromNow();
      },
      writeTs: (ts) => {
        if (this.current === current) events.data(ts);
      },
      end: () => {
        if (this.current !== current) return;
        this.events.log(`publish from ${request.remoteAddress} ended`);
        void this.endPublish();
      },
    };
  }

  private async endPublish(): Promise<void> {
    const current = this.current;
    this.current = undefined;
    if (!current) return;
    const hook = this.options.onPublish;
    if (hook) void callPublishHook(hook, 'publish_stop', this.options.name, current.request);
    current.remux?.stdin?.end();
    await current.remux?.stop();
  }

  /** The fallback for what the in-process remux does not take: ffmpeg reading the FLV on stdin. */
  private startRemux(): Supervisor {
    const events = this.events;
    const remux = new Supervisor({
      binary: this.options.binary,
      args: flvRemuxArgs(),
      env: this.options.env,
      withStdin: true,
      // A publish is not restarted: when the publisher goes, so does its remux.
      restart: false,
      logLines: 50,
      onStdout: (chunk) => events.data(chunk),
      onLine: (line) => events.log(line),
    });
    remux.start();
    return remux;
  }
}

interface Publish {
  request: PublishRequest;
  /** FLV to MPEG-TS in process (H.264 and AAC)… */
  native: FlvToTs;
  /** …or through ffmpeg, for other codecs. */
  remux: Supervisor | undefined;
  disconnect: () => void;
}
