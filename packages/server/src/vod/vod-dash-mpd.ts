import { VOD_PTS_OFFSET_S, type VodSegment, type VodTrack } from './vod-source.js';

/**
 * The static MPD of a file (ISO/IEC 23009-1, isoff-live profile): one Period, an AdaptationSet per
 * video track and per AAC audio track, each with one Representation whose pieces are named by the
 * track: init-ID.m4s and seg-ID-I.m4s. Every Representation lists the file's segments in a
 * SegmentTimeline on the 90 kHz clock of the fragments' video, so `t` is the segment's first
 * presentation time as the fragment carries it (media time + VOD_PTS_OFFSET_S) and
 * presentationTimeOffset moves that offset back to 0 on the player's timeline.
 */

/** The pieces of index.mpd: a track's init, and its fragment of segment I. */
export const DASH_PIECE = /^(?:init-(\d{1,9})|seg-(\d{1,9})-(\d{1,9}))\.m4s$/;

export type DashPiece = { trackId: number; init: true } | { trackId: number; init: false; index: number };

export function parseDashPiece(resource: string): DashPiece | undefined {
  const match = DASH_PIECE.exec(resource);
  if (!match) return undefined;
  if (match[1] !== undefined) return { trackId: Number(match[1]), init: true };
  return { trackId: Number(match[2]), init: false, index: Number(match[3]) };
}

/** The remuxer (media/fmp4) carries H.264/HEVC video and AAC audio; other tracks are left out. */
export function dashTracks(tracks: readonly VodTrack[]): VodTrack[] {
  return tracks.filter((t) =>
    t.content === 'video' ? /^(avc1|hvc1|hev1)\./.test(t.codec) : t.codec.startsWith('mp4a.40.'),
  );
}

const TIMESCALE = 90_000;

export function vodMpd(
  durationS: number,
  segments: readonly VodSegment[],
  tracks: readonly VodTrack[],
  query: string,
): string {
  const timeline = segmentTimeline(segments, durationS);
  let longest = 0;
  for (const s of segments) longest = Math.max(longest, s.durationS);
  const lines = [
    '<?xml version="1.0" encoding="utf-8"?>',
    `<MPD xmlns="urn:mpeg:dash:schema:mpd:2011" profiles="urn:mpeg:dash:profile:isoff-live:2011" type="static" mediaPresentationDuration="${isoDuration(durationS)}" maxSegmentDuration="${isoDuration(longest)}" minBufferTime="PT2S">`,
    '  <Period id="0" start="PT0S">',
  ];
  const audio = tracks.filter((t) => t.content === 'audio');
  for (const track of dashTracks(tracks)) {
    const video = track.content === 'video';
    const set = [
      `id="${track.id}"`,
      `contentType="${track.content}"`,
      `mimeType="${video ? 'video' : 'audio'}/mp4"`,
      'segmentAlignment="true"',
      'startWithSAP="1"',
    ];
    if (track.lang) set.push(`lang="${escapeXml(track.lang)}"`);
    lines.push(`    <AdaptationSet ${set.join(' ')}>`);
    if (!video && audio.length > 1)
      lines.push(
        `      <Role schemeIdUri="urn:mpeg:dash:role:2011" value="${track === audio[0] ? 'main' : 'alternate'}"/>`,
      );
    const representation = [
      `id="${track.id}"`,
      `codecs="${escapeXml(track.codec)}"`,
      `bandwidth="${Math.max(1, Math.round(track.bitrate))}"`,
    ];
    if (track.width && track.height)
      representation.push(`width="${track.width}"`, `height="${track.height}"`);
    if (track.fps) representation.push(`frameRate="${frameRate(track.fps)}"`);
    if (track.sample_rate) representation.push(`audioSamplingRate="${track.sample_rate}"`);
    lines.push(`      <Representation ${representation.join(' ')}>`);
    if (track.channels)
      lines.push(
        `        <AudioChannelConfiguration schemeIdUri="urn:mpeg:dash:23003:3:audio_channel_configuration:2011" value="${track.channels}"/>`,
      );
    const template = [
      `timescale="${TIMESCALE}"`,
      `presentationTimeOffset="${VOD_PTS_OFFSET_S * TIMESCALE}"`,
      'startNumber="0"',
      `initialization="${escapeXml(`init-${track.id}.m4s${query}`)}"`,
      `media="${escapeXml(`seg-${track.id}-$Number$.m4s${query}`)}"`,
    ];
    lines.push(`        <SegmentTemplate ${template.join(' ')}>`, '          <SegmentTimeline>');
    lines.push(...timeline.map((s) => `            ${s}`));
    lines.push('          </SegmentTimeline>', '        </SegmentTemplate>', '      </Representation>');
    lines.push('    </AdaptationSet>');
  }
  lines.push('  </Period>', '</MPD>');
  return `${lines.join('\n')}\n`;
}

/**
 * <S> elements: each segment's start and length in ticks, taken from the rounded start times so
 * lengths add up to the file without drift; runs of equal lengths folded into @r.
 */
function segmentTimeline(segments: readonly VodSegment[], durationS: number): string[] {
  const tick = (s: number) => Math.round((s + VOD_PTS_OFFSET_S) * TIMESCALE);
  const out: string[] = [];
  let run: { t: number; d: number; r: number } | undefined;
  const flush = () => {
    if (run) out.push(`<S t="${run.t}" d="${run.d}"${run.r > 0 ? ` r="${run.r}"` : ''}/>`);
  };
  segments.forEach((s, i) => {
    const t = tick(s.startS);
    const next = segments[i + 1];
    const d = (next ? tick(next.startS) : tick(Math.max(durationS, s.startS + s.durationS))) - t;
    if (run && run.d === d && run.t + run.d * (run.r + 1) === t) run.r++;
    else {
      flush();
      run = { t, d, r: 0 };
    }
  });
  flush();
  return out;
}

/** xs:duration with milliseconds. */
const isoDuration = (s: number): string => `PT${(Math.round(s * 1000) / 1000).toFixed(3)}S`;

/** 25 → '25', 29.97 → '30000/1001'. */
function frameRate(fps: number): string {
  if (Number.isInteger(fps)) return String(fps);
  const ntsc = Math.round(fps * 1.001);
  return Math.abs(ntsc / 1.001 - fps) < 0.01 ? `${ntsc * 1000}/1001` : String(Math.round(fps * 1000) / 1000);
}

const escapeXml = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
