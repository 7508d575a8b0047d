import { createServer, type Server, type Socket } from 'node:net';
import { PeerSockets } from '../ingest/peer-sockets.js';
import type { TlsWrap } from '../ingest/tls-accept.js';
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
  private readonly peers: PeerSockets;

  constructor(
    private readonly deps: RtspSessionDeps,
    private readonly log: RtspServerLog,
    private readonly limits: RtspLimits,
    private readonly tls?: TlsWrap,
  ) {
    this.peers = new PeerSockets(tls?.name ?? 'rtsp', limits, log, tls);
  }

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
    this.peers.destroyAll();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server = undefined;
    this.udp?.close();
    this.udp = undefined;
  }

  private accept(socket: Socket): void {
    // A plain listener whose UDP pair is gone (closing) takes no one.
    if (!this.udp && !this.tls) return void socket.destroy();
    this.peers.accept(socket, (peer) => this.connect(peer));
  }

  private connect(socket: Socket): void {
    new RtspConnection(socket, { ...this.deps, limits: this.limits, log: this.log, udp: this.udp });
  }
}
