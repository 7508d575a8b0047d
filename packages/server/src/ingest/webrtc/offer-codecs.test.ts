import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_OFFER_BYTES, offerCodecs } from './offer-codecs.js';

/** The media sections of Chromium's offer for a camera and a microphone (trimmed, real lines). */
const video = (formats: string[][]) =>
  [
    `m=video 9 UDP/TLS/RTP/SAVPF ${formats.map((f) => f[0]).join(' ')}`,
    'c=IN IP4 0.0.0.0',
    'a=mid:0',
    'a=sendonly',
    ...formats.flatMap(([pt, map, fmtp]) => [
      `a=rtpmap:${pt} ${map}`,
      `a=rtcp-fb:${pt} nack pli`,
      ...(fmtp ? [`a=fmtp:${pt} ${fmtp}`] : []),
    ]),
  ].join('\r\n');
const audio = (formats: string[][]) =>
  [
    `m=audio 9 UDP/TLS/RTP/SAVPF ${formats.map((f) => f[0]).join(' ')}`,
    'a=mid:1',
    ...formats.map(([pt, map]) => `a=rtpmap:${pt} ${map}`),
  ].join('\r\n');
const offer = (...sections: string[]) =>
  ['v=0', 'o=- 1 2 IN IP4 127.0.0.1', 's=-', 't=0 0', 'a=group:BUNDLE 0 1', ...sections, ''].join('\r\n');

const CHROMIUM_VIDEO = [
  ['96', 'VP8/90000'],
  ['97', 'rtx/90000', 'apt=96'],
  ['102', 'H264/90000', 'level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42001f'],
  ['104', 'H264/90000', 'level-asymmetry-allowed=1;packetization-mode=0;profile-level-id=42001f'],
  ['108', 'H264/90000', 'level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42e01f'],
  ['116', 'H264/90000', 'level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=4d001f'],
  ['98', 'VP9/90000', 'profile-id=0'],
];
const CHROMIUM_AUDIO = [
  ['111', 'opus/48000/2'],
  ['9', 'G722/8000'],
  ['0', 'PCMU/8000'],
];

describe('offerCodecs', () => {
  it("takes Chromium's constrained-baseline H.264 in packetization mode 1 and Opus, and leaves werift only those", () => {
    const chosen = offerCodecs(offer(video(CHROMIUM_VIDEO), audio(CHROMIUM_AUDIO)));
    if ('refused' in chosen) throw new Error(chosen.refused);
    expect(chosen.video).toMatchObject({ payloadType: 108, codec: 'H264', clockRate: 90000 });
    expect(chosen.video?.fmtp).toContain('profile-level-id=42e01f');
    expect(chosen.audio).toEqual({
      payloadType: 111,
      codec: 'opus',
      clockRate: 48000,
      channels: 2,
      fmtp: undefined,
    });
    expect(chosen.sdp).toContain('m=video 9 UDP/TLS/RTP/SAVPF 108\r\n');
    expect(chosen.sdp).toContain('m=audio 9 UDP/TLS/RTP/SAVPF 111\r\n');
    expect(chosen.sdp).not.toMatch(/a=(rtpmap|fmtp|rtcp-fb):(96|97|102|104|116|98|9|0) /);
    // Everything else in the offer is left as it was.
    expect(chosen.sdp).toContain('a=group:BUNDLE 0 1\r\nm=video');
    expect(chosen.sdp).toContain('a=mid:0\r\na=sendonly');
  });

  it('takes VP8 when no H.264 is offered (it is then encoded to H.264), and audio alone', () => {
    const vp8 = offerCodecs(
      offer(
        video([
          ['96', 'VP8/90000'],
          ['98', 'VP9/90000'],
        ]),
        audio(CHROMIUM_AUDIO),
      ),
    );
    expect(vp8).toMatchObject({ video: { payloadType: 96, codec: 'VP8' } });
    expect(offerCodecs(offer(audio(CHROMIUM_AUDIO)))).toMatchObject({ audio: { codec: 'opus' } });
  });

  it('refuses an offer without a usable codec, saying what was offered and what is taken (422)', () => {
    expect(offerCodecs(offer(video([['98', 'VP9/90000']]), audio([['9', 'G722/8000']])))).toEqual({
      refused: 'no usable video codec in the offer (offered: VP9; Sluice takes H264 or VP8)',
      status: 422,
    });
    expect(offerCodecs(offer(audio([['9', 'G722/8000']])))).toMatchObject({
      refused: 'no usable audio codec in the offer (offered: G722; Sluice takes Opus)',
    });
    expect(offerCodecs(offer(video(CHROMIUM_VIDEO), video(CHROMIUM_VIDEO)))).toMatchObject({ status: 422 });
    expect(offerCodecs(offer('m=application 9 UDP/DTLS/SCTP webrtc-datachannel'))).toMatchObject({
      status: 422,
    });
  });

  it('refuses malformed text (400)', () => {
    for (const text of [
      '',
      'hello',
      'v=1\r\n',
      'v=0\r\ns=-\r\n',
      'v=0\r\nm=video x\r\n',
      'v=0\r\nnot sdp\r\n',
      'v=0\0\r\n',
    ])
      expect(offerCodecs(text)).toMatchObject({
        status: 400,
        refused: expect.stringMatching(/^malformed SDP offer: /),
      });
    expect(offerCodecs(`v=0\r\n${'a=x\r\n'.repeat(MAX_OFFER_BYTES / 4)}`)).toMatchObject({ status: 400 });
  });

  it('never throws, and what it keeps is one codec per section that the offer offered (fuzz)', () => {
    const line = fc.oneof(
      fc.constantFrom(
        'v=0',
        'a=rtpmap:96 VP8/90000',
        'a=rtpmap:102 H264/90000',
        'a=fmtp:102 packetization-mode=1;profile-level-id=42e01f',
        'a=rtpmap:111 opus/48000/2',
        'm=video 9 UDP/TLS/RTP/SAVPF 96 102',
        'm=audio 9 UDP/TLS/RTP/SAVPF 111',
        'a=rtcp-fb:* nack',
      ),
      fc.string({ maxLength: 60 }),
      fc.string({ maxLength: 20 }).map((s) => `a=${s}`),
      fc
        .tuple(fc.constantFrom('m=video', 'm=audio', 'a=rtpmap:', 'a=fmtp:'), fc.string({ maxLength: 30 }))
        .map(([a, b]) => `${a}${b}`),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 30 }), fc.constantFrom('\r\n', '\n'), (lines, eol) => {
        const result = offerCodecs(['v=0', ...lines].join(eol));
        if ('refused' in result) return [400, 422].includes(result.status) && result.refused.length > 0;
        const mlines = result.sdp.split('\r\n').filter((l) => l.startsWith('m='));
        return mlines.every((m) => m.split(' ').length === 4) && (result.video ?? result.audio) !== undefined;
      }),
      { numRuns: 10_000 },
    );
  });
});
