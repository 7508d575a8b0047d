import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';

/** Receives a publisher's RTP sent over UDP; `channel` is 2 × its track's index (as interleaved). */
export type UdpReceiver = (payload: Buffer) => void;

const bind = (port: number, host: string): Promise<Socket | undefined> =>
  new Promise((resolve) => {
    const socket = createSocket('udp4');
    socket.once('error', () => {
      socket.close();
      resolve(undefined);
    });
    socket.bind(port, host, () => {
      socket.removeAllListeners('error');
      resolve(socket);
    });
  });

/**
 * The server's RTP/RTCP port pair for RTSP over UDP (server_port): one even port for RTP and the
 * next for RTCP, shared by every UDP session. Players are sent to from it; a publisher's RTP is
 * told apart by its source address and port (its client_port).
 */
export class RtspUdp {
  private readonly receivers = new Map<string, UdpReceiver>();
  /** Datagrams from addresses no SETUP gave: counted, not answered. */
  strays = 0;

  private constructor(
    private readonly rtpSocket: Socket,
    private readonly rtcpSocket: Socket,
  ) {
    rtpSocket.on('message', (message: Buffer, from: RemoteInfo) => {
      const receiver = this.receivers.get(`${from.address}:${from.port}`);
      if (receiver) receiver(message);
      else this.strays++;
    });
    // Receiver reports from players and publishers' sender reports are not used.
    rtcpSocket.on('message', () => undefined);
    for (const socket of [rtpSocket, rtcpSocket]) socket.on('error', () => undefined);
  }

  static async open(host: string): Promise<RtspUdp> {
    for (let attempt = 0; attempt < 50; attempt++) {
      const rtp = await bind(0, host);
      const port = rtp?.address().port;
      if (!rtp || port === undefined) continue;
      if (port % 2 === 0 && port < 65535) {
        const rtcp = await bind(port + 1, host);
        if (rtcp) return new RtspUdp(rtp, rtcp);
      }
      rtp.close();
    }
    throw new Error('no free UDP port pair for RTSP');
  }

  get ports(): [number, number] {
    return [this.rtpSocket.address().port, this.rtcpSocket.address().port];
  }

  sendRtp(packet: Buffer, port: number, address: string): void {
    this.rtpSocket.send(packet, port, address);
  }

  sendRtcp(packet: Buffer, port: number, address: string): void {
    this.rtcpSocket.send(packet, port, address);
  }

  /** Takes the RTP arriving from address:port; returns how to stop. */
  receive(address: string, port: number, receiver: UdpReceiver): () => void {
    const key = `${address}:${port}`;
    this.receivers.set(key, receiver);
    return () => {
      if (this.receivers.get(key) === receiver) this.receivers.delete(key);
    };
  }

  close(): void {
    this.rtpSocket.close();
    this.rtcpSocket.close();
  }
}
