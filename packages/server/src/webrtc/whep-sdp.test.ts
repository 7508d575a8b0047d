import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chooseCodecs, MAX_OFFER_BYTES, parseOffer, restrictOffer } from './whep-sdp.js';
import { parseSdpFragment } from './whep-trickle.js';

/** The media part of Chromium's recvonly offer (as Debian's Chromium writes it), shortened. */
const CHROMIUM_OFFER = [
  'v=0',
  'o=- 4459168748863245234 2 IN IP4 127.0.0.1',
  's=-',
  't=0 0',
  'a=group:BUNDLE 0 1',
  'm=video 9 UDP/TLS/RTP/SAVPF 96 97 102 103 104 108 116',
  'c=IN IP4 0.0.0.0',
  'a=ice-ufrag:Pxox',
  'a=ice-pwd:HnRyDRG7m4BdfGsdsBaaZydU',
  'a=mid:0',
  'a=recvonly',
  'a=rtpmap:96 VP8/90000',
  'a=rtcp-fb:96 nack',
  'a=rtpmap:97 rtx/90000',
  'a=fmtp:97 apt=96',
  'a=rtpmap:102 H264/90000',
  'a=rtcp-fb:102 nack pli',
  'a=fmtp:102 level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42001f',
  'a=rtpmap:103 rtx/90000',
  'a=fmtp:103 apt=102',
  'a=rtpmap:104 H264/90000',
  'a=fmtp:104 level-asymmetry-allowed=1;packetization-mode=0;profile-level-id=42001f',
  'a=rtpmap:108 H264/90000',
  'a=fmtp:108 level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42e01f',
  'a=rtpmap:116 H264/90000',
  'a=fmtp:116 level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=4d001f',
  'm=audio 9 UDP/TLS/RTP/SAVPF 111 63 0',
  'a=mid:1',
  'a=recvonly',
  'a=rtpmap:111 opus/48000/2',
  'a=fmtp:111 minptime=10;useinbandfec=1',
  'a=rtpmap:63 red/48000/2',
  'a=rtpmap:0 PCMU/8000',
  '',
].join('\r\n');

const parsed = () => {
  const offer = parseOffer(CHROMIUM_OFFER);
  if ('error' in offer) throw new Error(offer.error);
  return offer.media;
};

describe('WHEP offer', () => {
  it("reads Chromium's offer: two sections, their direction and codecs", () => {
    const media = parsed();
    expect(media.map((m) => [m.kind, m.direction, m.codecs.length])).toEqual([
      ['video', 'recvonly', 7],
      ['audio', 'recvonly', 3],
    ]);
    expect(media[0]!.codecs.find((c) => c.payloadType === 108)!.params['profile-level-id']).toBe('42e01f');
  });

  it('chooses mode-1 H.264: the stream profile when offered, else constrained baseline; and Opus', () => {
    const media = parsed();
    const pick = (profile?: number) => {
      const choice = chooseCodecs(media, profile);
      if ('error' in choice) throw new Error(choice.error);
      return [choice.video?.payloadType, choice.audio?.payloadType];
    };
    expect(pick(0x4d)).toEqual([116, 111]);
    // High (0x64) is not offered by Chromium: constrained baseline, which it decodes High with.
    expect(pick(0x64)).toEqual([108, 111]);
    expect(pick()).toEqual([108, 111]);
  });

  it('refuses an offer whose video has no H.264, or that asks for nothing', () => {
    const vp8Only = parseOffer(CHROMIUM_OFFER.replace(/H264/g, 'VP9'));
    expect('media' in vp8Only && chooseCodecs(vp8Only.media)).toEqual({
      error: 'the offer has no H.264 video (packetization-mode=1)',
    });
    const inactive = parseOffer(CHROMIUM_OFFER.replace(/a=recvonly/g, 'a=inactive'));
    expect('media' in inactive && chooseCodecs(inactive.media)).toEqual({
      error: 'the offer asks for no audio or video',
    });
  });

  it('keeps only the chosen codec of each section for werift', () => {
    const choice = chooseCodecs(parsed());
    if ('error' in choice) throw new Error(choice.error);
    const restricted = restrictOffer(CHROMIUM_OFFER, choice);
    expect(restricted).toContain('m=video 9 UDP/TLS/RTP/SAVPF 108\r\n');
    expect(restricted).toContain('m=audio 9 UDP/TLS/RTP/SAVPF 111\r\n');
    expect(restricted).not.toMatch(/a=rtpmap:(96|102|104|63|0) /);
    expect(restricted).toContain('a=ice-ufrag:Pxox');
    const again = parseOffer(restricted);
    expect('media' in again && again.media.map((m) => m.codecs.map((c) => c.payloadType))).toEqual([
      [108],
      [111],
    ]);
  });

  it('names what is wrong in a malformed offer', () => {
    expect(parseOffer('hello')).toEqual({ error: 'not an SDP offer (it must start with v=0)' });
    expect(parseOffer('v=0\r\nm=video nine RTP 96\r\n')).toMatchObject({
      error: expect.stringMatching(/malformed media line/),
    });
    expect(parseOffer('v=0\r\nbad line\r\n')).toMatchObject({
      error: expect.stringMatching(/malformed SDP line/),
    });
    expect(parseOffer('v=0\r\ns=-\r\n')).toEqual({ error: 'the offer has no media section' });
    expect(parseOffer(`v=0\r\n${'a=x\r\n'.repeat(MAX_OFFER_BYTES / 4)}`)).toMatchObject({
      error: expect.stringMatching(/over/),
    });
  });

  it('reads a trickle fragment and refuses a malformed candidate', () => {
    expect(
      parseSdpFragment(
        'a=ice-ufrag:Pxox\r\na=mid:0\r\na=candidate:1 1 udp 2113937151 192.0.2.1 5000 typ host\r\na=end-of-candidates\r\n',
      ),
    ).toEqual({
      ufrag: 'Pxox',
      candidates: [{ candidate: 'candidate:1 1 udp 2113937151 192.0.2.1 5000 typ host', mid: '0' }],
      end: true,
    });
    expect(parseSdpFragment('a=candidate:nonsense')).toMatchObject({
      error: expect.stringMatching(/malformed candidate/),
    });
  });

  /** Any text a peer may post: the parsers answer a value or an error, never throw, and what they choose exists. */
  it('fuzz: offers and fragments of any shape (10^4 cases)', () => {
    const line = fc.oneof(
      fc.constantFrom(...CHROMIUM_OFFER.split('\r\n')),
      fc.string({ maxLength: 60 }),
      fc
        .tuple(
          fc.constantFrom('m=video ', 'm=audio ', 'a=rtpmap:', 'a=fmtp:', 'a=candidate:'),
          fc.string({ maxLength: 40 }),
        )
        .map(([a, b]) => a + b),
    );
    const text = fc.oneof(
      fc.array(line, { maxLength: 40 }).map((lines) => ['v=0', ...lines].join('\r\n')),
      fc.string({ maxLength: 300 }),
      fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b).toString('latin1')),
    );
    fc.assert(
      fc.property(text, fc.option(fc.integer({ min: 0, max: 255 })), (sdp, profile) => {
        const offer = parseOffer(sdp);
        expect(parseSdpFragment(sdp)).toBeTypeOf('object');
        if ('error' in offer) {
          expect(offer.error.length).toBeGreaterThan(0);
          return;
        }
        const choice = chooseCodecs(offer.media, profile ?? undefined);
        if ('error' in choice) return;
        const restricted = parseOffer(restrictOffer(sdp, choice));
        expect('media' in restricted).toBe(true);
        if (choice.video) expect(offer.media.some((m) => m.codecs.includes(choice.video!))).toBe(true);
      }),
      { numRuns: 10_000 },
    );
  });
});
