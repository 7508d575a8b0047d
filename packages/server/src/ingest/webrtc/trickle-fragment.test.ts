import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { offerUfrag, trickleFragment } from './trickle-fragment.js';

describe('trickleFragment', () => {
  it('reads the candidates per media section, the ufrag and the end of candidates (RFC 8840)', () => {
    const body = [
      'a=ice-ufrag:EsAw',
      'a=ice-pwd:P2uYro0UCOQ4zxjKXaWCBui1',
      'm=audio 9 RTP/AVP 0',
      'a=mid:0',
      'a=candidate:1387637174 1 udp 2122260223 192.0.2.1 61764 typ host generation 0 ufrag EsAw network-id 1',
      'a=candidate:3471623853 1 udp 2122194687 198.51.100.2 61765 typ host',
      'a=end-of-candidates',
      '',
    ].join('\r\n');
    expect(trickleFragment(body)).toEqual({
      ufrag: 'EsAw',
      candidates: [
        {
          candidate:
            'candidate:1387637174 1 udp 2122260223 192.0.2.1 61764 typ host generation 0 ufrag EsAw network-id 1',
          sdpMid: '0',
        },
        { candidate: 'candidate:3471623853 1 udp 2122194687 198.51.100.2 61765 typ host', sdpMid: '0' },
      ],
      endOfCandidates: true,
    });
  });

  it('refuses what is not a fragment', () => {
    expect(trickleFragment('hello')).toEqual({
      refused: 'malformed trickle ICE fragment: a line is not of the form x=…',
    });
    expect(trickleFragment('a=candidate:1 1 udp')).toMatchObject({
      refused: expect.stringMatching(/unreadable candidate/),
    });
    expect(trickleFragment('a=ice-ufrag:a\r\na=ice-ufrag:b')).toMatchObject({
      refused: expect.stringMatching(/two different/),
    });
    expect(trickleFragment('a=x\u0001')).toMatchObject({
      refused: expect.stringMatching(/control characters/),
    });
  });

  it('never throws (fuzz)', () => {
    const line = fc.oneof(
      fc.string({ maxLength: 80 }),
      fc.string({ maxLength: 80 }).map((s) => `a=candidate:${s}`),
      fc.constantFrom('a=mid:0', 'a=end-of-candidates', 'a=ice-ufrag:x', 'm=audio 9 RTP/AVP 0'),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 20 }), (lines) => {
        const result = trickleFragment(lines.join('\r\n'));
        return 'refused' in result || result.candidates.every((c) => c.candidate.startsWith('candidate:'));
      }),
      { numRuns: 10_000 },
    );
  });
});

describe('offerUfrag', () => {
  it("is the offer's first ice-ufrag", () => {
    expect(offerUfrag('v=0\r\nm=video 9 X 96\r\na=ice-ufrag:abcd\r\na=ice-ufrag:zz\r\n')).toBe('abcd');
    expect(offerUfrag('v=0\r\n')).toBeUndefined();
  });
});
