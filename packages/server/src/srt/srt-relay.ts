import { createSocket, type Socket } from 'node:dgram';

/** Callers one SRT port serves at once; datagrams of further ones are dropped (before any passphrase). */
export const MAX_SRT_PEERS = 16;
/** A caller silent this long is forgotten (SRT keepalives come every second; libsrt gives up at 5 s). */
const PEER_IDLE_MS = 10_000;

export interface RelayPeer {
  /** address:port of the caller. */
  key: string;
  address: string;
  port: number;
}

export interface SrtRelayOptions {
  host: string;
  port: number;
  /** Where this caller's datagrams go: an ffmpeg libsrt listener on 127.0.0.1; undefined drops the caller. */
  innerPort: (peer: RelayPeer) => number | undefined;
  /** The caller was forgotten (silent, or the relay closed). */
  onGone?: (peer: RelayPeer) => void;
}

interface Upstream {
  peer: RelayPeer;
  socket: Socket;
  seen: number;
}

/**
 * The public SRT port: a UDP relay in front of ffmpeg's libsrt listeners on loopback. libsrt does the
 * protocol (handshake, passphrase, retransmission); the relay is what tells the server who called
 * (published_from, a player's session) and lets each caller have a listener of its own. Each caller
 * gets an upstream socket of its own, so the listener sees it as a distinct peer.
 */
export class SrtRelay {
  private socket: Socket | undefined;
  private readonly upstreams = new Map<string, Upstream>();
  private sweep: NodeJS.Timeout | undefined;

  constructor(private readonly options: SrtRelayOptions) {}

  /** The caller that sent last, e.g. the publisher of a publish port. */
  lastPeer: RelayPeer | undefined;

  async start(): Promise<void> {
    const socket = createSocket({ type: 'udp4' });
    socket.on('message', (message, from) => this.fromCaller(message, from.address, from.port));
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.bind(this.options.port, this.options.host, () => {
        socket.off('error', reject);
        resolve();
      });
    });
    // A send error (a caller's address unreachable) must not end the port.
    socket.on('error', () => undefined);
    roomy(socket);
    this.socket = socket;
    this.sweep = setInterval(() => this.forgetIdle(Date.now()), 2000);
    this.sweep.unref();
  }

  close(): void {
    clearInterval(this.sweep);
    this.socket?.close();
    this.socket = undefined;
    for (const key of [...this.upstreams.keys()]) this.forget(key);
  }

  /** Drops a caller now (its listener is gone); its next datagram starts it over. */
  forget(key: string): void {
    const upstream = this.upstreams.get(key);
    if (!upstream) return;
    this.upstreams.delete(key);
    upstream.socket.close();
    this.options.onGone?.(upstream.peer);
  }

  private fromCaller(message: Buffer, address: string, port: number): void {
    const key = `${address}:${port}`;
    let upstream = this.upstreams.get(key);
    if (!upstream) {
      if (this.upstreams.size >= MAX_SRT_PEERS) return;
      const peer = { key, address, port };
      const inner = this.options.innerPort(peer);
      if (inner === undefined) return;
      const socket = createSocket({ type: 'udp4' });
      // Nothing listening yet (the listener is starting): the caller repeats its handshake.
      socket.on('error', () => undefined);
      socket.on('message', (back) => this.socket?.send(back, port, address));
      socket.connect(inner, '127.0.0.1', () => roomy(socket));
      upstream = { peer, socket, seen: 0 };
      this.upstreams.set(key, upstream);
    }
    upstream.seen = Date.now();
    this.lastPeer = upstream.peer;
    const { socket } = upstream;
    // Datagrams before the connect completes would throw: they are dropped, the caller resends.
    try {
      socket.send(message);
    } catch {
      // not connected yet
    }
  }

  private forgetIdle(now: number): void {
    for (const [key, upstream] of this.upstreams) if (now - upstream.seen > PEER_IDLE_MS) this.forget(key);
  }
}

/** Large socket buffers ride out a burst (a player's start) and event-loop pauses without loss. */
function roomy(socket: Socket): void {
  try {
    socket.setRecvBufferSize(4 * 1024 * 1024);
    socket.setSendBufferSize(4 * 1024 * 1024);
  } catch {
    // The kernel caps it (net.core.rmem_max); the default still works.
  }
}
