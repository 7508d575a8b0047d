import { createServer, type Server, type Socket } from 'node:net';
import { logText } from '../ingest/rtmp/log-text.js';
import { acceptTls, type TlsWrap } from '../ingest/tls-accept.js';
import { RtspConnection, type RtspServerLog } from './rtsp-connection.js';
import type { RtspLimits } from './rtsp-limits.js';
import type { RtspSessionDeps } from './rtsp-session.js';
import { RtspUdp } from './rtsp-udp.js';

/**
 * The RTSP listener (TCP) and its UDP port pair. Each peer is an RtspConnection; one address may
 * hold at most `limits.maxConnectionsPerIp` of them. With `tls` (RTSPS) each socket is counted as
 * it is accepted and speaks RTSP once its TLS handshake is done within the handshake timeout; it
 * has no UDP pair (RTP goes interleaved inside the TLS connection, or the media would go in clear).
 */
export class RtspServer {
  private server: Server | undefined;
  private udp: RtspUdp | undefined;
  private readonly sockets = new Set<Socket>();
  private readonly perIp = new Map<string, number>();
  /** Addresses at their cap whose refusal was logged: logged again only once they went under it. */
  private readonly loggedAtCap = new Set<string>();

  constructor(
    private readonly deps: RtspSessionDeps,
    private readonly log: RtspServerLog,
    private readonly limits: RtspLimits,
    private readonly tls?: TlsWrap,
  ) {}

  async listen(port: number, host: string): Promise<number> {
    // UDP goes over IPv4 (udp4): a listener on every address takes UDP on every IPv4 address.
    if (!this.tls) this.udp = await RtspUdp.open(host.includes(':') ? '0.0.0.0' : host);
    try {
      return await new Promise((resolve, reject) => {
        const server = createServer((socket) => this.accept(socket));
        server.once('error', reject);
        server.listen({ port, host }, () => {
          this.server = server;
          const address = server.address();
          resolve(typeof address === 'object' && address ? address.port : port);
        });
      });
    } catch (error) {
      this.udp?.close();
      this.udp = undefined;
      throw error;
    }
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server = undefined;
    this.udp?.close();
    this.udp = undefined;
  }

  private accept(socket: Socket): void {
    const ip = socket.remoteAddress ?? '';
    const open = this.perIp.get(ip) ?? 0;
    if (open >= this.limits.maxConnectionsPerIp || (!this.udp && !this.tls)) {
      if (!this.loggedAtCap.has(ip)) {
        this.loggedAtCap.add(ip);
        this.log.notice(
          `${this.tls?.name ?? 'rtsp'} connections from ${logText(ip)} refused: ${this.limits.maxConnectionsPerIp} are open already`,
        );
      }
      socket.destroy();
      return;
    }
    this.perIp.set(ip, open + 1);
    this.sockets.add(socket);
    socket.setNoDelay(true);
    socket.once('close', () => {
      this.sockets.delete(socket);
      const left = (this.perIp.get(ip) ?? 1) - 1;
      if (left > 0) this.perIp.set(ip, left);
      else this.perIp.delete(ip);
      if (left < this.limits.maxConnectionsPerIp) this.loggedAtCap.delete(ip);
    });
    if (!this.tls) return this.connect(socket);
    acceptTls(socket, this.tls, this.limits.handshakeTimeoutMs, this.log, (secure) => {
      this.sockets.add(secure);
      secure.once('close', () => this.sockets.delete(secure));
      this.connect(secure);
    });
  }

  private connect(socket: Socket): void {
    new RtspConnection(socket, { ...this.deps, limits: this.limits, log: this.log, udp: this.udp });
  }
}
