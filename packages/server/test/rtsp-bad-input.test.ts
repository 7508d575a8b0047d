import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';
import { ffmpegPlay, RawRtsp, request } from './rtsp-helpers.js';

/** Bad input on the RTSP port: each gets a clear status and a log line; only that connection ends. */
describe('RTSP bad input', () => {
  let server: RunningServer;
  let port: number;
  let url: string;

  beforeAll(async () => {
    port = await freePort();
    url = `rtsp://127.0.0.1:${port}/static/t`;
    server = await startServer({
      config: `${minimalConfig}rtsp ${port};\nstream t {\n  url test://?size=160x120&bitrate=150;\n  static true;\n}\n`,
      env: { SLUICE_RTSP_HANDSHAKE_TIMEOUT_MS: '2000', SLUICE_RTSP_MAX_CONNECTIONS_PER_IP: '40' },
    });
    await waitFor(() =>
      RawRtsp.open(port).then(
        (r) => (r.destroy(), true),
        () => false,
      ),
    );
  }, 60_000);
  afterAll(async () => {
    await server?.cleanup();
  });

  /** Sends `bytes` on a new connection; resolves with the answer once the connection closed or answered. */
  const exchange = async (bytes: string | Buffer, until: 'closed' | 'answered' = 'closed') => {
    const raw = await RawRtsp.open(port);
    raw.write(bytes);
    await waitFor(() => (until === 'closed' ? raw.closed : /\r\n\r\n/.test(raw.text)), 10_000);
    raw.destroy();
    return raw.text;
  };

  /** The server still answers a well-formed request. */
  const stillAnswers = async () =>
    expect(await exchange(request('OPTIONS', url, 9), 'answered')).toMatch(
      /^RTSP\/1\.0 200 OK\r\nCSeq: 9\r\n/,
    );

  it('answers bad CSeq, versions, headers and sizes with their status, logs it and closes only that connection', async () => {
    const survivor = await RawRtsp.open(port);
    expect(await exchange(request('OPTIONS', url, 'x'))).toMatch(/^RTSP\/1\.0 400 Bad Request\r\n/);
    expect(server.output()).toMatch(/rtsp connection from 127\.0\.0\.1 ended: 400: a bad CSeq/);
    expect(await exchange('OPTIONS * RTSP/2.0\r\nCSeq: 3\r\n\r\n')).toMatch(
      /^RTSP\/1\.0 505 .*\r\nCSeq: 3\r\n/,
    );
    expect(await exchange('OPTIONS rtsp://h/a/b RTSP/1.0\r\nCSeq: 1\r\nno colon here\r\n\r\n')).toMatch(
      /^RTSP\/1\.0 400 /,
    );
    expect(await exchange(`OPTIONS ${url} RTSP/1.0\r\nCSeq: 1\r\nX: ${'a'.repeat(20_000)}`)).toMatch(
      /^RTSP\/1\.0 431 /,
    );
    expect(await exchange(`ANNOUNCE ${url} RTSP/1.0\r\nCSeq: 1\r\nContent-Length: 999999\r\n\r\n`)).toMatch(
      /^RTSP\/1\.0 413 /,
    );
    // Another connection, open all along, is still served.
    survivor.write(request('OPTIONS', url, 4));
    await waitFor(() => survivor.text.includes('CSeq: 4'));
    survivor.destroy();
  });

  it('answers an unknown method 501 and an unusable transport 461, and the connection goes on', async () => {
    const raw = await RawRtsp.open(port);
    raw.write(request('FLY', url, 1));
    await waitFor(() => raw.text.includes('CSeq: 1'));
    expect(raw.text).toMatch(/^RTSP\/1\.0 501 Not Implemented\r\n/);
    raw.write(request('SETUP', `${url}/trackID=0`, 2, ['Transport: RTP/AVP;multicast;port=5000-5001']));
    await waitFor(() => raw.text.includes('CSeq: 2'));
    expect(raw.text).toContain('RTSP/1.0 461 Unsupported Transport\r\nCSeq: 2');
    raw.write(request('OPTIONS', url, 3));
    await waitFor(() => raw.text.includes('CSeq: 3'));
    raw.destroy();
    expect(server.output()).toMatch(/rtsp FLY from 127\.0\.0\.1 answered 501: method FLY is not served/);
    expect(server.output()).toMatch(/rtsp SETUP from 127\.0\.0\.1 answered 461: no transport served/);
  });

  it('ends a connection that sends interleaved data on a channel no SETUP gave, or a burst of requests', async () => {
    await exchange(Buffer.from([0x24, 5, 0, 2, 1, 2]));
    expect(server.output()).toMatch(/ended: interleaved data on channel 5, which no SETUP gave/);
    await exchange(Array.from({ length: 80 }, (_, i) => request('OPTIONS', url, i)).join(''));
    expect(server.output()).toMatch(/ended: over 50 requests in a second/);
    await stillAnswers();
  });

  it('closes a peer that says nothing before its deadline, and caps connections per address', async () => {
    const silent = await RawRtsp.open(port);
    await waitFor(() => silent.closed, 10_000);
    expect(server.output()).toMatch(/ended: no PLAY or RECORD accepted within 2000 ms/);
    const many = await Promise.all(Array.from({ length: 45 }, () => RawRtsp.open(port)));
    await waitFor(() => many.filter((r) => r.closed).length >= 5, 10_000);
    expect(server.output()).toMatch(/rtsp connections from 127\.0\.0\.1 refused: 40 are open already/);
    for (const r of many) r.destroy();
    await waitFor(() => RawRtsp.open(port).then((r) => (r.destroy(), !r.closed)));
  });

  it('survives random requests over TCP and still plays', async () => {
    const junk = fc.sample(
      fc.oneof(
        fc.string({ maxLength: 200 }).map((s) => `${s}\r\n\r\n`),
        fc
          .constantFrom('DESCRIBE', 'SETUP', 'PLAY', 'RECORD', 'ANNOUNCE', 'TEARDOWN')
          .map((m) =>
            request(m, url, 1, [
              'Session: 123',
              'Transport: RTP/AVP/TCP;interleaved=0-1',
              'Content-Length: 0',
            ]),
          ),
        fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b).toString('latin1')),
      ),
      100,
    );
    for (let i = 0; i < junk.length; i += 20) {
      await Promise.all(junk.slice(i, i + 20).map((bytes) => exchange(bytes).catch(() => '')));
    }
    await stillAnswers();
    const play = await ffmpegPlay(url, 'tcp', 10);
    expect(play.code, play.output).toBe(0);
  }, 90_000);
});
