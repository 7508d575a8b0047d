import { LOGO_CORNERS, type LogoCorner, type ServerInfo, type Transcoder } from '@sluice/api';
import {
  HARDWARE,
  type Hardware,
  NEW_AUDIO_BITRATE,
  NEW_AUDIO_CODEC,
  NEW_VIDEO_BITRATE,
  NEW_VIDEO_CODEC,
  type TrackPreset,
} from './transcoder-constants.js';

/**
 * The Transcoder tab's rules (spec 001 §4 "Transcoder", "Audio", "Video track", "Hardware change"),
 * as pure functions from one transcoder config to the next. Nothing here mutates its input.
 */
export type VideoTrack = NonNullable<Transcoder['video']>[string];
export type Audio = NonNullable<Transcoder['audio']>;
type Size = NonNullable<VideoTrack['size']>;
export type Device = ServerInfo['transcoder_devices'][number];

/** A transcoder that holds anything is on; absent or {} is off (the media list's rule too). */
export const isEnabled = (t: Transcoder | null | undefined): t is Transcoder =>
  t !== null && t !== undefined && Object.keys(t).length > 0;

export const newAudio = (): Audio => ({ bitrate: NEW_AUDIO_BITRATE, codec: NEW_AUDIO_CODEC });
export const newVideoTrack = (): VideoTrack => ({ bitrate: NEW_VIDEO_BITRATE, codec: NEW_VIDEO_CODEC });

/** Enable transcoder: hw cpu, 64 kbps aac audio with no sample rate, track 0 at 1 Mbps h264. */
export const enabledDefaults = (): Transcoder => ({
  global: { hw: 'cpu' },
  audio: newAudio(),
  video: { '0': newVideoTrack() },
});

/** The video tracks by index, in index order. */
export function videoTracks(t: Transcoder | undefined): [string, VideoTrack][] {
  return Object.entries(t?.video ?? {}).sort(([a], [b]) => Number(a) - Number(b));
}

/** A new track's index: one past the highest, 0 when there is none. */
export function nextTrackIndex(t: Transcoder | undefined): string {
  const indexes = Object.keys(t?.video ?? {}).map(Number);
  return String(indexes.length === 0 ? 0 : Math.max(...indexes) + 1);
}

function withTrack(t: Transcoder, index: string, track: VideoTrack): Transcoder {
  return { ...t, video: { ...t.video, [index]: track } };
}

/** A preset's track: its bitrate and height, the width following the aspect (-1). */
export const presetTrack = (preset: TrackPreset): VideoTrack => ({
  ...newVideoTrack(),
  bitrate: preset.bitrate,
  size: { width: -1, height: preset.height },
});

/** Adds a track (the default one, or a preset's) at the next index; the caller expands it. */
export function addTrack(t: Transcoder, preset?: TrackPreset): { transcoder: Transcoder; index: string } {
  const index = nextTrackIndex(t);
  return { transcoder: withTrack(t, index, preset ? presetTrack(preset) : newVideoTrack()), index };
}

export function duplicateTrack(t: Transcoder, from: string): { transcoder: Transcoder; index: string } {
  const track = t.video?.[from];
  if (!track) return { transcoder: t, index: from };
  const index = nextTrackIndex(t);
  return { transcoder: withTrack(t, index, structuredClone(track)), index };
}

/** Removes a track; with none left the video block goes too. */
export function removeTrack(t: Transcoder, index: string): Transcoder {
  const { [index]: _removed, ...rest } = t.video ?? {};
  const { video: _video, ...others } = t;
  return Object.keys(rest).length > 0 ? { ...others, video: rest } : others;
}

/** Hardware, deinterlace, device and seamless apply only when some track is encoded (not copied). */
export const hasEncodedTrack = (t: Transcoder | undefined): boolean =>
  videoTracks(t).some(([, track]) => track.bitrate !== 'copy');

/** Leaving the Hardware selector: external belongs to nvenc only, so any other hw clears it. */
export function leaveHardware(t: Transcoder): Transcoder {
  if (t.global?.hw === 'nvenc' || t.global?.external === undefined) return t;
  const { external: _external, ...global } = t.global;
  return { ...t, global };
}

/**
 * Hardware offered: cpu always, others when the server lists a device of the type, and those in
 * `keep` (the saved value, the one chosen) so a config made on another machine still shows.
 */
export function hardwareOptions(
  devices: readonly Device[],
  keep: readonly (string | undefined)[],
): Hardware[] {
  return HARDWARE.filter((hw) => hw === 'cpu' || keep.includes(hw) || devices.some((d) => d.type === hw));
}

/** Device ids the server found for the chosen hardware. */
export const deviceIds = (devices: readonly Device[], hw: string | undefined): number[] =>
  devices.filter((d) => d.type === hw).map((d) => d.id);

/** -1, 0 or nothing: the dimension follows the source (shown as 'auto'). */
export const isAuto = (value: number | null | undefined): boolean =>
  value === undefined || value === null || value === -1 || value === 0;

/**
 * Sets one dimension of a track's size (spec 001 §5): both can't be auto, so a dimension set makes
 * an unset other one -1; clearing one while the other is auto removes the size altogether.
 */
export function setDimension(
  size: Size | undefined,
  axis: 'width' | 'height',
  value: number | null,
): Size | undefined {
  const other = axis === 'width' ? 'height' : 'width';
  const otherValue = size?.[other];
  if (isAuto(value)) return isAuto(otherValue) ? undefined : { ...size, [axis]: -1 };
  return { ...size, [axis]: value ?? undefined, [other]: isAuto(otherValue) ? -1 : otherValue };
}

/**
 * 'Copy from origin' on a track: the bitrate becomes copy and the encoding settings go (a copied
 * track is not encoded); the track as it was is kept as the backup to restore.
 */
export function videoCopyOn(track: VideoTrack): { track: VideoTrack; backup: VideoTrack | undefined } {
  return { track: { bitrate: 'copy' }, backup: track.bitrate === 'copy' ? undefined : track };
}

/** Turning copy off restores the backup, or the track with the new-track bitrate. */
export function videoCopyOff(track: VideoTrack, backup: VideoTrack | undefined): VideoTrack {
  return backup ?? { ...track, bitrate: NEW_VIDEO_BITRATE };
}

/** 'Use defaults' on: no audio block (null deletes it); off: 64 kbps aac. */
export const audioUseDefaults = (on: boolean): Audio | null => (on ? null : newAudio());

/** Audio 'Copy from origin': bitrate copy and nothing else; the audio as it was is the backup. */
export function audioCopyOn(audio: Audio | undefined): { audio: Audio; backup: Audio | undefined } {
  return { audio: { bitrate: 'copy' }, backup: audio?.bitrate === 'copy' ? undefined : audio };
}

export const audioCopyOff = (backup: Audio | undefined): Audio => backup ?? newAudio();

/** The corners in the order the selector lists them. */
export const CORNERS = Object.keys(LOGO_CORNERS) as LogoCorner[];

/** The corner a logo's x/y expressions name, if they are one of the fixed ones. */
export function cornerOf(logo: { x?: string; y?: string } | undefined): LogoCorner | undefined {
  return CORNERS.find((corner) => logo?.x === LOGO_CORNERS[corner].x && logo.y === LOGO_CORNERS[corner].y);
}

type Logo = NonNullable<VideoTrack['logo']>;

/** Choosing a corner sets x/y to its fixed expressions (margin 10, spec 001 §4); none clears them. */
export function setLogoCorner(logo: Logo, corner: LogoCorner | null): Logo {
  const { x: _x, y: _y, ...rest } = logo;
  return corner ? { ...rest, ...LOGO_CORNERS[corner] } : rest;
}

/** A logo path as typed (trimmed); empty removes the logo. */
export function setLogoPath(logo: Logo | undefined, path: string): Logo | undefined {
  const trimmed = path.trim();
  return trimmed === '' ? undefined : { ...logo, path: trimmed };
}

/** An uploaded logo file is named by '@' and its name. */
export const logoFilePath = (name: string): string => `@${name}`;
