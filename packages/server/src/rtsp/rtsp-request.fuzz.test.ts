import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRtsp, RTSP_PARSE_LIMITS } from './rtsp-request.js';
import { chooseTransport, parseRtspUrl } from './rtsp-url.js';
import { parseAnnounce } from './sdp.js';

/** Pieces of RTSP requests glued at random with junk between: what anyone on the port may send. */
const piece = fc.oneof(
  fc.constantFrom(
    'OPTIONS ',
    'DESCRIBE ',
    'SETUP ',
    'PLAY ',
    'ANNOUNCE ',
    'rtsp://h:554/static/a',
    '/trackID=0',
    '?password=x',
    ' RTSP/1.0',
    ' RTSP/2.0',
    '\r\n',
    '\r\n\r\n',
    'CSeq: 1',
    'CSeq: -1',
    'CSeq: 99999999999',
    'Content-Length: 5',
    'Content-Length: 99999999',
    'Transport: RTP/AVP/TCP;interleaved=0-1',
    'Transport: RTP/AVP;client_port=5000-5001',
    ': ',
    '$',
    '\0',
    'v=0\r\nm=video 0 RTP/AVP 96\r\na=rtpmap:96 H264/90000\r\n',
  ),
  fc.string({ maxLength: 12 }),
  fc.uint8Array({ maxLength: 16 }).map((b) => Buffer.from(b).toString('latin1')),
);
const message = fc.array(piece, { maxLength: 24 }).map((parts) => Buffer.from(parts.join(''), 'latin1'));

describe('RTSP request parser (fuzz)', () => {
  it('never throws, and answers every input with a request, a frame, "incomplete" or a status', () => {
    fc.assert(
      fc.property(message, (bytes) => {
        const parsed = parseRtsp(bytes);
        if (parsed.kind === 'request' || parsed.kind === 'interleaved') {
          expect(parsed.length).toBeGreaterThan(0);
          expect(parsed.length).toBeLessThanOrEqual(bytes.length);
        }
        if (parsed.kind === 'request') {
          expect(parsed.request.cseq).toBeGreaterThanOrEqual(0);
          expect(parsed.request.body.length).toBeLessThanOrEqual(RTSP_PARSE_LIMITS.maxBodyBytes);
          parseRtspUrl(parsed.request.uri);
          chooseTransport(parsed.request.headers.get('transport'));
          try {
            parseAnnounce(parsed.request.body.toString('latin1'));
          } catch (error) {
            expect(error).toBeInstanceOf(Error);
          }
        }
        if (parsed.kind === 'error') expect([400, 413, 431, 505]).toContain(parsed.status);
        // Without an end of headers, bytes past the limit are refused rather than kept waiting for.
        if (parsed.kind === 'incomplete' && bytes[0] !== 0x24 && bytes.indexOf('\r\n\r\n') < 0)
          expect(bytes.length).toBeLessThanOrEqual(RTSP_PARSE_LIMITS.maxHeaderBytes);
      }),
      { numRuns: 10_000 },
    );
  });

  it('reads a well-formed request, its body and what follows it', () => {
    const sdp = 'v=0\r\n';
    const bytes = Buffer.from(
      `ANNOUNCE rtsp://h/live/a RTSP/1.0\r\nCSeq: 7\r\nContent-Type: application/sdp\r\nContent-Length: ${sdp.length}\r\n\r\n${sdp}$\x00\x00\x02ab`,
      'latin1',
    );
    const first = parseRtsp(bytes);
    expect(first).toMatchObject({ kind: 'request', request: { method: 'ANNOUNCE', cseq: 7 } });
    if (first.kind !== 'request') return;
    expect(first.request.body.toString()).toBe(sdp);
    expect(parseRtsp(bytes.subarray(first.length))).toMatchObject({
      kind: 'interleaved',
      channel: 0,
      length: 6,
    });
  });

  it('refuses a bad CSeq, a bad version and a huge header block with their statuses', () => {
    const parse = (text: string) => parseRtsp(Buffer.from(text, 'latin1'));
    expect(parse('OPTIONS * RTSP/1.0\r\nCSeq: x\r\n\r\n')).toMatchObject({
      status: 400,
      reason: 'a bad CSeq',
    });
    expect(parse('OPTIONS * RTSP/1.0\r\n\r\n')).toMatchObject({ status: 400, reason: 'no CSeq' });
    expect(parse('OPTIONS * RTSP/2.0\r\nCSeq: 1\r\n\r\n')).toMatchObject({ status: 505, cseq: 1 });
    expect(parse(`OPTIONS * RTSP/1.0\r\nX: ${'a'.repeat(9000)}`)).toMatchObject({ status: 431 });
  });

  it('reads the stream, track and query of URLs as clients build them', () => {
    expect(parseRtspUrl('rtsp://h:1/static/a/trackID=1?token=t')).toMatchObject({
      stream: 'a',
      track: 1,
      query: { token: 't' },
    });
    expect(parseRtspUrl('rtsp://h:1/live/a?password=p/streamid=0')).toMatchObject({
      stream: 'live/a',
      track: 0,
      query: { password: 'p' },
    });
    // One path part is the stream of that name (spec 001 §9: RTSP host/name), as under /static.
    expect(parseRtspUrl('rtsp://h:1/a/trackID=2')).toMatchObject({ app: 'static', stream: 'a', track: 2 });
    expect(parseRtspUrl('rtsp://h:1/')).toBeUndefined();
    expect(chooseTransport('RTP/AVP;multicast, RTP/AVP/TCP;unicast;interleaved=2-3')).toEqual({
      lower: 'tcp',
      channels: [2, 3],
    });
    expect(chooseTransport('RAW/RAW/UDP;unicast')).toBeUndefined();
  });
});
