import { createSocket, type Socket } from 'node:dgram';
import type { Source, SourceEvents } from './source.js';

export interface UdpPlan {
  bindAddress: string;
  port: number;
  multicastGroup?: string;
  multicastInterface?: string;
}

/** Receives MPEG-TS datagrams (usually 7 packets each) and passes them on as they come. */
export class UdpSource implements Source {
  private socket: Socket | undefined;

  constructor(
    private readonly plan: UdpPlan,
    private readonly events: SourceEvents,
  ) {}

  start(): void {
    if (this.socket) return;
    const { bindAddress, port, multicastGroup, multicastInterface } = this.plan;
    // reuseAddr lets a backup stream, or a probe of this URL, listen to the same multicast group.
    const socket = createSocket({ type: 'udp4', reuseAddr: true });
    this.socket = socket;
    socket.on('message', (datagram) => this.events.data(datagram));
    socket.on('error', (error) => {
      this.events.error(`udp://${bindAddress}:${port}: ${error.message}`);
      socket.close();
      if (this.socket === socket) this.socket = undefined;
    });
    socket.bind(port, bindAddress, () => {
      try {
        // A large receive buffer rides out event-loop pauses without dropping datagrams.
        socket.setRecvBufferSize(4 * 1024 * 1024);
      } catch {
        // The kernel caps it (net.core.rmem_max); the default still works.
      }
      if (multicastGroup) {
        try {
          socket.addMembership(multicastGroup, multicastInterface);
        } catch (error) {
          this.events.error(`can't join ${multicastGroup}: ${(error as Error).message}`);
          return;
        }
      }
      this.events.log(`listening on udp://${multicastGroup ?? bindAddress}:${port}`);
    });
  }

  async stop(): Promise<void> {
    const socket = this.socket;
    this.socket = undefined;
    if (!socket) return;
    await new Promise<void>((resolve) => {
      try {
        socket.close(() => resolve());
      } catch {
        resolve();
      }
    });
  }
}
