import { execFile } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { promisify } from 'node:util';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';
import { streamStats } from './media-helpers.js';

const run = promisify(execFile);
const COMMUNITY = 'w5-secret-community';
const BASE = '1.3.6.1.3.8472';
type ReadConfig = { stats: Record<string, number> };

/** A UDP port that was free a moment ago. */
async function freeUdpPort(): Promise<number> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  await new Promise<void>((resolve) => socket.close(resolve));
  return port;
}

/** Debian's snmpget/snmpwalk, numeric OIDs, `OID value` lines; one try of 2 s. */
async function snmp(tool: 'snmpget' | 'snmpwalk', port: number, oids: string[], community = COMMUNITY) {
  const { stdout } = await run(
    tool,
    ['-v2c', '-c', community, '-On', '-Oq', '-Ov', '-t', '2', '-r', '0', `127.0.0.1:${port}`, ...oids].filter(
      (a) => !(tool === 'snmpwalk' && a === '-Ov'),
    ),
  );
  return stdout;
}
const values = async (port: number, oids: string[]) =>
  (await snmp('snmpget', port, oids))
    .trim()
    .split('\n')
    .map((l) => l.replace(/^"|"$/g, ''));

describe('SNMP port', () => {
  let server: RunningServer;
  let port: number;
  beforeAll(async () => {
    port = await freeUdpPort();
    server = await startServer({
      config:
        `${minimalConfig}snmp ${port};\nsnmp_community ${COMMUNITY};\n` +
        `stream demo {\n  url test://?size=160x120&bitrate=150;\n  static true;\n}\n` +
        `stream idle {\n  url udp://239.0.0.9:5000;\n}\n`,
    });
    // The server stats count it online within a second of the stream; its bitrate takes a few more.
    await waitFor(async () => {
      const stats = ((await (await server.api('/flussonic/api/read_config')).json()) as ReadConfig).stats;
      return stats.online_streams === 1 && ((await streamStats(server, 'demo')).bitrate ?? 0) > 0;
    }, 30_000);
  }, 60_000);
  afterAll(() => server?.cleanup());

  it('snmpget answers the server counters of the stats API', async () => {
    const read = async () => {
      const stats = (
        (await (await server.api('/flussonic/api/read_config')).json()) as { stats: Record<string, number> }
      ).stats;
      const got = await values(
        port,
        [1, 2, 3, 4].map((n) => `${BASE}.1.${n}.0`),
      );
      return { stats, got: got.map(Number) };
    };
    // Counts and clients are steady here; uptime moves by a second between the two reads at most.
    const { stats, got } = await waitFor(async () => {
      const r = await read();
      return r.got[1] === r.stats.total_streams && r.got[2] === r.stats.online_streams ? r : undefined;
    });
    expect(got[1]).toBe(2);
    expect(got[2]).toBe(1);
    expect(got[3]).toBe(stats.total_clients);
    expect(Math.abs(got[0]! - stats.uptime!)).toBeLessThanOrEqual(2);
    // Input bitrate and CPU are live figures: present and plausible (the test source runs).
    // A rate over the last second: the test source's first second can read 0, so it is waited for.
    const live = async () =>
      (await values(port, [`${BASE}.1.5.0`, `${BASE}.1.6.0`, `${BASE}.1.7.0`])).map(Number);
    const [inputKbit, , cpu] = await waitFor(async () => {
      const got = await live();
      return got[0]! > 0 ? got : undefined;
    }, 10_000).catch(live);
    expect(inputKbit).toBeGreaterThan(0);
    expect(cpu).toBeLessThanOrEqual(100);
  });

  it('snmpwalk lists each stream with its name, alive flag, bitrate and clients', async () => {
    const read = async () => {
      const walk = await snmp('snmpwalk', port, [`${BASE}.2`]);
      const cell = (column: number, index: number) =>
        new RegExp(`^\\.${BASE.replaceAll('.', '\\.')}\\.2\\.1\\.${column}\\.${index} (.*)$`, 'm').exec(
          walk,
        )?.[1];
      return { cell, demo: await streamStats(server, 'demo') };
    };
    // The bitrate is a live figure read twice (SNMP, then the stats API): a walk whose reading agrees
    // with the API's within half is waited for (under load the two reads can straddle a change).
    const agree = ({ cell, demo }: Awaited<ReturnType<typeof read>>) =>
      Number(cell(4, 1)) > 0 && Math.abs(Number(cell(4, 1)) - (demo.bitrate ?? 0)) < (demo.bitrate ?? 0) / 2;
    const { cell, demo } = await waitFor(async () => {
      const r = await read();
      return agree(r) ? r : undefined;
    }, 15_000).catch(read);
    expect([cell(2, 1), cell(2, 2)]).toEqual(['"demo"', '"idle"']);
    expect([cell(3, 1), cell(3, 2)]).toEqual(['1', '2']);
    expect(Number(cell(4, 1))).toBeGreaterThan(0);
    expect(Math.abs(Number(cell(4, 1)) - (demo.bitrate ?? 0))).toBeLessThan((demo.bitrate ?? 0) / 2);
    expect(Number(cell(5, 1))).toBe(demo.client_count ?? 0);
  });

  it('ignores a request with a wrong community (no answer at all)', async () => {
    await expect(snmp('snmpget', port, [`${BASE}.1.2.0`], 'public')).rejects.toThrow(/Timeout/);
  });

  it('survives random and mangled datagrams, and still answers', async () => {
    // A real GET as snmpget sends it, caught on a socket of our own, to mangle.
    const catcher = createSocket('udp4');
    await new Promise<void>((resolve) => catcher.bind(0, '127.0.0.1', resolve));
    const caught = new Promise<Buffer>((resolve) => catcher.once('message', resolve));
    void run('snmpget', [
      '-v2c',
      '-c',
      COMMUNITY,
      '-t',
      '1',
      '-r',
      '0',
      `127.0.0.1:${catcher.address().port}`,
      `${BASE}.1.2.0`,
    ]).catch(() => undefined);
    const request = await caught;
    const sender = createSocket('udp4');
    const send = (bytes: Uint8Array) =>
      new Promise<void>((resolve) => sender.send(bytes, port, '127.0.0.1', () => resolve()));
    const mangled = fc
      .array(fc.tuple(fc.nat(request.length - 1), fc.integer({ min: 0, max: 255 })), {
        minLength: 1,
        maxLength: 4,
      })
      .map((edits) => {
        const copy = Buffer.from(request);
        for (const [at, byte] of edits) copy[at] = byte;
        return copy;
      });
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.uint8Array({ maxLength: 600 }), mangled), async (bytes) => send(bytes)),
      { numRuns: 10_000 },
    );
    sender.close();
    catcher.close();
    expect(server.process.exitCode).toBeNull();
    // The datagrams queued in the socket are worked through first: it answers within the budget.
    expect(await waitFor(() => values(port, [`${BASE}.1.2.0`]).catch(() => undefined), 30_000)).toEqual([
      '2',
    ]);
    expect(server.output()).not.toMatch(/uncaught exception/);
  }, 60_000);
});
