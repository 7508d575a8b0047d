import type { Socket } from 'node:net';
import { logText } from '../ingest/rtmp/log-text.js';
import type { RtspLimits } from './rtsp-limits.js';
import { parseRtsp, type RtspRequest } from './rtsp-request.js';
import { responseBytes, type RtspReply } from './rtsp-response.js';
import { type RtspLink, RtspSession, type RtspSessionDeps } from './rtsp-session.js';
import type { RtspTransport } from './rtsp-url.js';
import type { RtspUdp } from './rtsp-udp.js';

export interface RtspServerLog {
  notice(message: string): void;
  error(message: string): void;
}

export interface RtspConnectionDeps extends RtspSessionDeps {
  limits: RtspLimits;
  log: RtspServerLog;
  /** The UDP port pair; none over RTSPS (TCP interleaved only). */
  udp: RtspUdp | undefined;
}

/**
 * One RTSP peer on its socket: requests are read one at a time (the next waits for the answer of
 * the one before), answered by its RtspSession, interleaved frames handed to it. A malformed
 * request, a burst, a peer that is slow to start, a publisher gone silent or a player too far
 * behind ends this connection with a status where one can be given and one log line.
 */
export class RtspConnection implements RtspLink {
  readonly address: string;
  readonly limits: RtspLimits;
  private readonly peer: string;
  private readonly session: RtspSession;
  private buffer: Buffer = Buffer.alloc(0);
  private busy = false;
  private ended = false;
  private readonly startDeadline: NodeJS.Timeout;
  private requestsThisSecond = 0;
  private secondStartMs = 0;
  private readonly maxBufferBytes: number;

  constructor(
    private readonly socket: Socket,
    private readonly deps: RtspConnectionDeps,
  ) {
    this.limits = deps.limits;
    this.address = (socket.remoteAddress ?? '').replace(/^::ffff:/, '');
    this.peer = logText(this.address);
    this.session = new RtspSession(deps, this);
    this.maxBufferBytes = this.limits.maxHeaderBytes + this.limits.maxBodyBytes + 4 + 65_535;
    this.startDeadline = setTimeout(
      () => this.close(`no PLAY or RECORD accepted within ${this.limits.handshakeTimeoutMs} ms`),
      this.limits.handshakeTimeoutMs,
    );
    socket.setTimeout(this.limits.idleTimeoutMs, () => this.onIdle());
    socket.on('data', (data: Buffer) => this.onData(data));
    socket.on('close', () => this.finish());
    socket.on('error', () => socket.destroy());
  }

  get udpServed(): boolean {
    return this.deps.udp !== undefined;
  }

  get closed(): boolean {
    return this.ended || this.socket.destroyed;
  }

  started(): void {
    clearTimeout(this.startDeadline);
  }

  close(reason: string, level: 'notice' | 'error' = 'notice'): void {
    if (!this.ended) this.deps.log[level](`rtsp connection from ${this.peer} ended: ${logText(reason)}`);
    this.ended = true;
    this.socket.destroy();
  }

  /** Ends the connection once the answer just written has gone out (a peer not reading is cut at 2 s). */
  private closeAfterReply(reason: string | undefined): void {
    if (reason !== undefined && !this.ended)
      this.deps.log.notice(`rtsp connection from ${this.peer} ended: ${logText(reason)}`);
    this.ended = true;
    this.socket.end();
    setTimeout(() => this.socket.destroy(), 2000).unref();
  }

  interleave(channel: number, data: Buffer): boolean {
    if (this.closed) return false;
    if (this.socket.writableLength > this.limits.maxPlayerBacklogBytes) {
      this.close(`over ${this.limits.maxPlayerBacklogBytes} bytes behind (a slow player)`);
      return false;
    }
    const header = Buffer.from([0x24, channel, data.length >> 8, data.length & 0xff]);
    this.socket.write(Buffer.concat([header, data]));
    return true;
  }

  sendUdp(packet: Buffer, port: number, rtcp: boolean): boolean {
    if (this.closed || !this.deps.udp) return false;
    if (rtcp) this.deps.udp.sendRtcp(packet, port, this.address);
    else this.deps.udp.sendRtp(packet, port, this.address);
    return true;
  }

  receiveUdp(port: number, receive: (payload: Buffer) => void): () => void {
    if (!this.deps.udp) return () => undefined;
    return this.deps.udp.receive(this.address, port, receive);
  }

  transportHeader(transport: RtspTransport): string {
    if (transport.lower === 'tcp') return `RTP/AVP/TCP;unicast;interleaved=${transport.channels.join('-')}`;
    const [rtp, rtcp] = this.deps.udp?.ports ?? [0, 0];
    return `RTP/AVP;unicast;client_port=${transport.clientPorts.join('-')};server_port=${rtp}-${rtcp}`;
  }

  channelTaken(channels: [number, number], given: Map<number, RtspTransport>): boolean {
    for (const t of given.values())
      if (t.lower === 'tcp' && t.channels.some((c) => channels.includes(c))) return true;
    return false;
  }

  private onIdle(): void {
    // A player only reads: its silence is normal. A publisher over UDP is silent on its socket.
    if (this.session.play.playing) return;
    const sinceMedia = Date.now() - this.session.publish.lastMediaMs;
    if (this.session.publish.recording && sinceMedia < this.limits.idleTimeoutMs) return;
    this.close(`nothing received for ${this.limits.idleTimeoutMs} ms`);
  }

  private onData(data: Buffer): void {
    if (this.ended) return;
    this.buffer = this.buffer.length === 0 ? data : Buffer.concat([this.buffer, data]);
    if (this.buffer.length > this.maxBufferBytes)
      return this.close(`over ${this.maxBufferBytes} bytes unread`);
    this.process();
  }

  /** Reads what the buffer holds, one message at a time; stops while a request is being answered. */
  private process(): void {
    while (!this.busy && !this.ended && this.buffer.length > 0) {
      const parsed = parseRtsp(this.buffer, this.limits);
      if (parsed.kind === 'incomplete') return;
      if (parsed.kind === 'error') {
        this.write({ status: parsed.status, close: true }, parsed.cseq);
        return this.closeAfterReply(`${parsed.status}: ${parsed.reason}`);
      }
      this.buffer = this.buffer.subarray(parsed.length);
      if (parsed.kind === 'interleaved') {
        if (this.session.publish.interleaved(parsed.channel, parsed.payload)) continue;
        if (this.session.play.ownsChannel(parsed.channel)) continue;
        return this.close(`interleaved data on channel ${parsed.channel}, which no SETUP gave`);
      }
      if (!this.countRequest()) return;
      this.answer(parsed.request);
    }
    // A whole buffer read is let go, not kept as a view of the last chunk.
    if (this.buffer.length === 0) this.buffer = Buffer.alloc(0);
  }

  private countRequest(): boolean {
    const now = Date.now();
    if (now - this.secondStartMs >= 1000) {
      this.secondStartMs = now;
      this.requestsThisSecond = 0;
    }
    if (++this.requestsThisSecond <= this.limits.maxRequestsPerSecond) return true;
    this.close(`over ${this.limits.maxRequestsPerSecond} requests in a second`);
    return false;
  }

  private answer(request: RtspRequest): void {
    let reply;
    try {
      reply = this.session.handle(request);
    } catch (error) {
      return this.failed(request, error);
    }
    if (!(reply instanceof Promise)) return this.reply(request, reply);
    this.busy = true;
    reply.then(
      (r) => {
        this.busy = false;
        this.reply(request, r);
        this.process();
      },
      (error: unknown) => this.failed(request, error),
    );
  }

  private failed(request: RtspRequest, error: unknown): void {
    this.busy = false;
    this.write({ status: 500 }, request.cseq);
    const what = error instanceof Error ? error.message : String(error);
    if (!this.ended)
      this.deps.log.error(
        `rtsp connection from ${this.peer} ended: an error answering ${logText(request.method)}: ${logText(what)}`,
      );
    this.closeAfterReply(undefined);
  }

  private reply(request: RtspRequest, reply: RtspReply): void {
    if (this.closed) return;
    if (reply.reason) {
      const line = `rtsp ${request.method} from ${this.peer} answered ${reply.status}: ${logText(reply.reason)}`;
      this.deps.log.notice(line);
    }
    this.write(reply, request.cseq);
    // A TEARDOWN is the normal end: not logged.
    if (reply.close) return this.closeAfterReply(reply.reason && `${reply.status}: ${reply.reason}`);
    reply.after?.();
  }

  private write(reply: RtspReply, cseq: number | undefined): void {
    if (!this.socket.destroyed) this.socket.write(responseBytes(reply, cseq));
  }

  private finish(): void {
    clearTimeout(this.startDeadline);
    this.ended = true;
    this.session.end();
  }
}
