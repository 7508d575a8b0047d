import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CONNECTION_LIMITS } from './connection-limits.js';
import { PortListeners } from './listeners.js';

/** A connection to `port` and everything it was sent until it closed. */
function client(port: number): { socket: Socket; closed: Promise<string> } {
  const socket = connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (d: Buffer) => (received += d.toString()));
  socket.on('error', () => undefined);
  return { socket, closed: new Promise((resolve) => socket.on('close', () => resolve(received))) };
}

describe('PortListeners', () => {
  const held: Socket[] = [];
  let listeners: PortListeners | undefined;
  afterEach(async () => {
    held.forEach((s) => s.destroy());
    held.length = 0;
    await listeners?.close();
  });
  const open = async (tls: boolean) => {
    listeners = new PortListeners((socket) => held.push(socket), '127.0.0.1', {
      label: tls ? 'HTTPS' : 'HTTP',
      tls,
      limits: { ...CONNECTION_LIMITS, perAddress: 2 },
      onError: (port, error) => {
        throw new Error(`port ${port}: ${error.message}`);
      },
    });
    await listeners.reconcile([0]);
    return listeners.bound()[0]!;
  };

  it('holds a TLS port to the per-address cap too, closing the extra connection without plain-text', async () => {
    const port = await open(true);
    client(port);
    client(port);
    await vi.waitFor(() => expect(held).toHaveLength(2));
    expect(await client(port).closed).toBe('');
    expect(held).toHaveLength(2);
  });

  it('answers 503 on a plain port past the cap', async () => {
    const port = await open(false);
    client(port);
    client(port);
    await vi.waitFor(() => expect(held).toHaveLength(2));
    expect(await client(port).closed).toMatch(/^HTTP\/1\.1 503 .*too many connections/s);
  });

  it('ends the open connections of a port taken out of the config', async () => {
    const port = await open(false);
    const { closed } = client(port);
    await vi.waitFor(() => expect(held).toHaveLength(1));
    await listeners!.reconcile([]);
    await closed;
    expect(held[0]!.destroyed).toBe(true);
  });
});
