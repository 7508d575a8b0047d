import { createSocket, type Socket } from 'node:dgram';

const bind = (port: number): Promise<Socket | undefined> =>
  new Promise((resolve) => {
    const socket = createSocket('udp4');
    socket.once('error', () => {
      socket.close();
      resolve(undefined);
    });
    socket.bind(port, '127.0.0.1', () => resolve(socket));
  });

const close = (socket: Socket | undefined) =>
  new Promise<void>((resolve) => (socket ? socket.close(() => resolve()) : resolve()));

/**
 * `count` even local UDP ports whose next port is free as well: ffmpeg receives RTP on each and
 * RTCP on the one after. The ports are released before ffmpeg binds them, so another program could
 * take one in between; ffmpeg then fails to start and the publish ends with its error.
 */
export async function freeRtpPorts(count: number): Promise<number[]> {
  const ports: number[] = [];
  const held: Socket[] = [];
  try {
    for (let attempt = 0; ports.length < count && attempt < 50; attempt++) {
      const probe = await bind(0);
      const port = probe?.address().port;
      if (probe) held.push(probe);
      if (port === undefined || port % 2 !== 0) continue;
      const next = await bind(port + 1);
      if (!next) continue;
      held.push(next);
      ports.push(port);
    }
  } finally {
    await Promise.all(held.map(close));
  }
  if (ports.length < count) throw new Error('no free local UDP ports for RTP');
  return ports;
}
