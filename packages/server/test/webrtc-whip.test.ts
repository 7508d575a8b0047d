import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';
import { streamStats } from './media-helpers.js';
import { type WhipClient, whipPublish } from './whip-client.js';

/** WHIP (RFC 9725) by a client that is not a browser: trickle ICE, DELETE, and what is refused. */
describe('WHIP publish', () => {
  let server: RunningServer;
  const clients: WhipClient[] = [];

  beforeAll(async () => {
    server = await startServer({
      config: `${minimalConfig}stream cam {\n  publish_enabled true;\n  password s3cret;\n  static true;\n}\n`,
    });
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.stop()));
    await server?.cleanup();
  });

  const post = (path: string, body: string, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/sdp', ...headers },
      body,
    });
  const patch = (location: string, body: string, headers: Record<string, string>) =>
    fetch(`${server.url}${location}`, { method: 'PATCH', headers, body });

  it('answers a trickle-ICE offer (201, Location, ETag), takes the PATCHed candidates, and ends on DELETE', async () => {
    const client = await whipPublish(`${server.url}/cam/whip`, {
      trickle: true,
      headers: { authorization: 'Bearer s3cret' },
    });
    clients.push(client);
    expect(client.response.status).toBe(201);
    expect(client.response.headers.get('content-type')).toBe('application/sdp');
    const location = client.response.headers.get('location')!;
    const etag = client.response.headers.get('etag')!;
    expect(location).toMatch(/^\/cam\/whip\/[0-9a-f-]{36}$/);
    expect(client.body).toMatch(/^v=0\r\n[\s\S]*a=candidate:/);
    expect(client.body).toMatch(/a=rtpmap:\d+ VP8\/90000/);

    const fragment = ['a=mid:0', ...client.candidates, 'a=end-of-candidates', ''].join('\r\n');
    const sdpfrag = { 'content-type': 'application/trickle-ice-sdpfrag' };
    // What RFC 9725 §4.3.1 refuses: another type (415), a stale ETag (412), an ICE restart (422).
    expect((await patch(location, fragment, { 'content-type': 'text/plain' })).status).toBe(415);
    expect((await patch(location, fragment, { ...sdpfrag, 'if-match': '"other"' })).status).toBe(412);
    expect((await patch(location, fragment, { ...sdpfrag, 'if-match': '*' })).status).toBe(422);
    expect((await patch(location, fragment, { ...sdpfrag, 'if-match': etag })).status).toBe(204);
    await client.connect();

    const stats = await waitFor(async () => {
      const s = await streamStats(server, 'cam');
      return s.alive && s.media_info?.tracks.length === 2 ? s : undefined;
    }, 60_000);
    expect(stats).toMatchObject({ published_from: '127.0.0.1', published_via: 'webrtc' });
    expect(server.output()).toMatch(
      /webrtc publish cam from 127\.0\.0\.1 answered: VP8 encoded to H\.264, Opus encoded to AAC/,
    );

    const deleted = await fetch(`${server.url}${location}`, { method: 'DELETE' });
    expect(deleted.status).toBe(200);
    await waitFor(async () => (await streamStats(server, 'cam')).published_from === undefined, 20_000);
    expect(server.output()).toMatch(
      /webrtc publish cam from 127\.0\.0\.1 ended: ended by the publisher \(WHIP DELETE\)/,
    );
    expect((await fetch(`${server.url}${location}`, { method: 'DELETE' })).status).toBe(404);
  }, 120_000);

  it('answers a browser’s CORS preflight for the endpoint', async () => {
    const preflight = await fetch(`${server.url}/cam/whip`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://studio.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, authorization',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('authorization');
    expect(preflight.headers.get('access-control-expose-headers')).toContain('location');
  });

  it('refuses bad offers with a clear 4xx and a log line, starting nothing', async () => {
    const chromiumLike = (video: string, audio: string) =>
      ['v=0', 'o=- 1 2 IN IP4 127.0.0.1', 's=-', 't=0 0', video, 'a=mid:0', audio, 'a=mid:1', ''].join(
        '\r\n',
      );
    const cases: [string, Response, number, string][] = [
      [
        'wrong type',
        await post('/cam/whip?password=s3cret', 'v=0', { 'content-type': 'text/plain' }),
        415,
        'the offer must be sent as Content-Type: application/sdp',
      ],
      [
        'malformed',
        await post('/cam/whip?password=s3cret', 'hello'),
        400,
        'malformed SDP offer: it does not start with v=0',
      ],
      [
        'no usable codec',
        await post(
          '/cam/whip?password=s3cret',
          chromiumLike(
            'm=video 9 UDP/TLS/RTP/SAVPF 98\r\na=rtpmap:98 VP9/90000',
            'm=audio 9 UDP/TLS/RTP/SAVPF 9\r\na=rtpmap:9 G722/8000',
          ),
        ),
        422,
        'no usable video codec in the offer (offered: VP9; Sluice takes H264 or VP8)',
      ],
      [
        'huge',
        await post('/cam/whip?password=s3cret', `v=0\r\n${'a=x\r\n'.repeat(50_000)}`),
        413,
        'the body is larger than 65536 bytes',
      ],
      [
        'wrong password',
        await post(
          '/cam/whip?token=nope',
          chromiumLike(
            'm=video 9 UDP/TLS/RTP/SAVPF 96\r\na=rtpmap:96 VP8/90000',
            'm=audio 9 UDP/TLS/RTP/SAVPF 111\r\na=rtpmap:111 opus/48000/2',
          ),
        ),
        403,
        'wrong or missing password',
      ],
      [
        'GET',
        await fetch(`${server.url}/cam/whip`),
        405,
        'GET is not allowed on a WHIP endpoint: POST an offer',
      ],
    ];
    for (const [what, response, status, message] of cases) {
      expect({ what, status: response.status, text: await response.text() }).toEqual({
        what,
        status,
        text: `${message}\n`,
      });
    }
    expect(server.output()).toMatch(/whip POST cam from 127\.0\.0\.1 refused \(415\)/);
    expect(server.output()).toMatch(
      /webrtc publish cam from 127\.0\.0\.1 refused: wrong or missing password/,
    );
    expect(server.output()).toMatch(/webrtc publish cam from 127\.0\.0\.1 refused: no usable video codec/);
    expect((await streamStats(server, 'cam')).published_from).toBeUndefined();
    // Refused offers hold no place under the caps (4 at once per address): a fifth is still
    // answered for itself (403), not refused as one too many (503).
    const again = await post(
      '/cam/whip?password=nope',
      'v=0\r\nm=audio 9 UDP/TLS/RTP/SAVPF 111\r\na=rtpmap:111 opus/48000/2\r\n',
    );
    expect(again.status).toBe(403);
  });
});
