import type { Socket } from 'node:net';
import { logText } from './rtmp/log-text.js';
import { acceptTls, type TlsAcceptLog, type TlsWrap } from './tls-accept.js';

/**
 * The TCP peers of one media listener (RTMP, RTMPS, RTSP, RTSPS): at most `maxPerIp` open at once
 * from one address, counted from the accept (before any handshake, so a peer can't hold more by
 * stalling), the refusals logged once per address while it stays at the cap; each TLS-wrapped when
 * the listener is; all destroyed when the listener closes.
 */
export class PeerSockets {
  private readonly sockets = new Set<Socket>();
  private readonly perIp = new Map<string, number>();
  /** Addresses whose refusal at the cap has been logged (once until one of their connections ends). */
  private readonly loggedAtCap = new Set<string>();

  constructor(
    /** The protocol as the log names it: rtmp, rtsp, or the TLS wrap's name. */
    private readonly label: string,
    private readonly limits: { maxConnectionsPerIp: number; handshakeTimeoutMs: number },
    private readonly log: TlsAcceptLog,
    private readonly tls?: TlsWrap,
  ) {}

  /** Admits `socket` and hands it (after its TLS handshake, on a TLS listener) to `connect`, or refuses it. */
  accept(socket: Socket, connect: (socket: Socket) => void): void {
    const ip = socket.remoteAddress ?? '';
    const open = this.perIp.get(ip) ?? 0;
    if (open >= this.limits.maxConnectionsPerIp) {
      if (!this.loggedAtCap.has(ip)) {
        this.loggedAtCap.add(ip);
        this.log.notice(
          `${this.label} connections from ${logText(ip)} refused: ${this.limits.maxConnectionsPerIp} are open already`,
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
    if (!this.tls) return connect(socket);
    acceptTls(socket, this.tls, this.limits.handshakeTimeoutMs, this.log, (secure) => {
      this.sockets.add(secure);
      secure.once('close', () => this.sockets.delete(secure));
      connect(secure);
    });
  }

  destroyAll(): void {
    for (const socket of this.sockets) socket.destroy();
  }
}
