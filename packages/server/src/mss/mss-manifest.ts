import type { FragmentTime } from './mss-boxes.js';
import { MSS_TIMESCALE } from './mss-segment.js';

export interface ManifestVideo {
  bitrate: number;
  width: number;
  height: number;
  codecPrivateData: string;
  chunks: readonly FragmentTime[];
}

export interface ManifestAudio {
  bitrate: number;
  sampleRate: number;
  channels: number;
  codecPrivateData: string;
  chunks: readonly FragmentTime[];
}

/** Fragments the server keeps past the newest listed one ([MS-SSTR] §2.2.2.1 LookAheadFragmentCount). */
export const LOOK_AHEAD_FRAGMENTS = 2;

/**
 * A live SmoothStreamingMedia manifest ([MS-SSTR] §2.2.2): IsLive, Duration 0 (dash.js reads a
 * live manifest with a Duration as a finished start-over one), DVRWindowLength = the listed
 * fragments' length; one StreamIndex per track with one QualityLevel and explicit `t` on every
 * chunk (the times the fragment URLs carry).
 */
export function mssManifest(tracks: { video?: ManifestVideo; audio?: ManifestAudio }): string {
  const lead = tracks.video ?? tracks.audio;
  const window = (lead?.chunks ?? []).reduce((n, c) => n + c.d, 0);
  const lines = [
    '<?xml version="1.0" encoding="utf-8"?>',
    `<SmoothStreamingMedia MajorVersion="2" MinorVersion="2" TimeScale="${MSS_TIMESCALE}" Duration="0" IsLive="TRUE" LookAheadFragmentCount="${LOOK_AHEAD_FRAGMENTS}" DVRWindowLength="${window}" CanSeek="TRUE" CanPause="TRUE">`,
  ];
  const { video, audio } = tracks;
  if (video) {
    lines.push(
      `  <StreamIndex Type="video" Name="video" Chunks="${video.chunks.length}" QualityLevels="1" MaxWidth="${video.width}" MaxHeight="${video.height}" DisplayWidth="${video.width}" DisplayHeight="${video.height}" Url="QualityLevels({bitrate})/Fragments(video={start time})">`,
      `    <QualityLevel Index="0" Bitrate="${video.bitrate}" FourCC="AVC1" MaxWidth="${video.width}" MaxHeight="${video.height}" CodecPrivateData="${hex(video.codecPrivateData)}"/>`,
      ...chunks(video.chunks),
      '  </StreamIndex>',
    );
  }
  if (audio) {
    lines.push(
      `  <StreamIndex Type="audio" Name="audio" Chunks="${audio.chunks.length}" QualityLevels="1" Url="QualityLevels({bitrate})/Fragments(audio={start time})">`,
      `    <QualityLevel Index="0" Bitrate="${audio.bitrate}" FourCC="AACL" SamplingRate="${audio.sampleRate}" Channels="${audio.channels}" BitsPerSample="16" PacketSize="4" AudioTag="255" CodecPrivateData="${hex(audio.codecPrivateData)}"/>`,
      ...chunks(audio.chunks),
      '  </StreamIndex>',
    );
  }
  lines.push('</SmoothStreamingMedia>', '');
  return lines.join('\n');
}

const chunks = (list: readonly FragmentTime[]) =>
  list.map((c) => `    <c t="${Math.round(c.t)}" d="${Math.round(c.d)}"/>`);

/** Attribute text that is hex digits only: nothing in it needs escaping, and nothing else gets in. */
function hex(text: string): string {
  if (!/^[0-9A-F]*$/.test(text)) throw new Error('CodecPrivateData must be upper-case hex');
  return text;
}
