import type { Transcoder } from '@sluice/api';
import { head } from './common-args.js';
import { cpuDeinterlaceFilter, decoderArgs, type Hardware, type SourceVideo } from './transcoder-hw.js';
import { pixelFormat, videoEncoderArgs, type VideoTrack } from './transcoder-video.js';

/**
 * The transcoder's ffmpeg command line (spec 001 §3 Transcoder settings): the stream's MPEG-TS on
 * stdin is decoded once, each configured video track becomes a rendition, the audio is encoded
 * once, and everything leaves as one MPEG-TS on stdout.
 *
 * Why one ffmpeg and one output: decoding (and deinterlacing, cropping) happens once for all the
 * renditions, where one ffmpeg per rendition would decode the source again for each. The output
 * puts each rendition in a program of its own with the audio shared (`-program`): each program
 * has its own PMT and its own PCR on its video, so the engine splits the output per variant by
 * program (media/program-filter.ts, the same filter the `program` source option uses) into a bus
 * whose HLS segmenter cuts at that rendition's keyframes. /mpegts serves the whole output.
 */

/** Transcoder audio when the config says null (spec 001 §4 'Use defaults'): AAC at 64 kbit/s. */
export const AUDIO_DEFAULTS = { codec: 'aac', bitrate: 64_000 } as const;

export interface TranscoderPlan {
  config: Transcoder;
  /** With no GOP set, a keyframe every this many seconds: one per HLS segment. */
  keyframeSeconds: number;
  /** The file of a logo path ('@name'), undefined when there is none to use. */
  logoFile: (path: string) => string | undefined;
  /** The source's video, undefined when the source has none. */
  video: SourceVideo | undefined;
  /** Whether the source has audio. */
  audio: boolean;
}

/** One rendition: its config key (the track index) and the output program that carries it. */
export interface Rendition {
  key: string;
  program: number;
  track: VideoTrack;
}

/** The configured video tracks in index order, each with its program (1, 2, …). */
export function renditions(config: Transcoder, hasVideo = true): Rendition[] {
  if (!hasVideo) return [];
  return Object.entries(config.video ?? {})
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([key, track], i) => ({ key, program: i + 1, track }));
}

export function transcoderArgs(plan: TranscoderPlan): string[] {
  const { config } = plan;
  const hw: Hardware = config.global?.hw ?? 'cpu';
  const deviceId = config.global?.deviceid ?? 0;
  const decoder = config.decoder ?? {};
  const tracks = renditions(config, plan.video !== undefined);
  const encoded = tracks.filter((t) => t.track.bitrate !== 'copy');
  const dec = encoded.length > 0 && plan.video ? decoderArgs(hw, deviceId, decoder, plan.video) : undefined;

  const logoInputs: string[] = [];
  const graph =
    encoded.length > 0 ? filterGraph(plan, encoded, dec?.deinterlaceOnDecoder ?? false, logoInputs) : '';
  const args = [
    ...head(),
    // key=value progress (out_time_us, speed) on stderr each second: the engine reads how fast the
    // transcoder runs against real time from it, and keeps those lines out of the stream log.
    '-progress',
    'pipe:2',
    '-stats_period',
    '1',
    ...(dec?.args ?? []),
    '-f',
    'mpegts',
    '-i',
    'pipe:0',
    ...logoInputs,
  ];
  if (graph) args.push('-filter_complex', graph);
  tracks.forEach((t, n) => {
    args.push('-map', t.track.bitrate === 'copy' ? '0:v:0' : `[v${t.key}]`);
    args.push(...videoEncoderArgs(hw, deviceId, n, t.track, plan.keyframeSeconds));
  });
  if (plan.audio) args.push('-map', '0:a:0', ...audioArgs(config.audio));
  // A program per rendition, each with the shared audio (the output's last stream).
  if (tracks.length > 0) {
    tracks.forEach((t, n) => {
      const streams = [`st=${n}`, ...(plan.audio ? [`st=${tracks.length}`] : [])];
      args.push('-program', [`program_num=${t.program}`, `title=v${t.program}`, ...streams].join(':'));
    });
  }
  return [...args, '-f', 'mpegts', 'pipe:1'];
}

/** Audio encoder flags; null or absent audio config takes AUDIO_DEFAULTS. */
export function audioArgs(audio: Transcoder['audio'] | null): string[] {
  if (audio?.bitrate === 'copy') return ['-c:a', 'copy'];
  const codec = audio?.codec ?? AUDIO_DEFAULTS.codec;
  const encoder = { aac: 'aac', opus: 'libopus', mp2a: 'mp2' }[codec];
  const args = ['-c:a', encoder, '-b:a', String(Math.round(audio?.bitrate ?? AUDIO_DEFAULTS.bitrate))];
  // Sample rate 0 is the console's "bypass": the source's rate is kept.
  if (audio?.sample_rate) args.push('-ar', String(audio.sample_rate));
  if (audio?.channels) args.push('-ac', String(audio.channels));
  return args;
}

/**
 * The filter graph: the decoded picture is cropped and deinterlaced once, split into one branch
 * per encoded rendition, and each branch scaled, re-timed and overlaid with its logo. Labels are
 * [v{key}] so the maps can name them.
 */
function filterGraph(
  plan: TranscoderPlan,
  encoded: readonly Rendition[],
  deinterlacedOnDecoder: boolean,
  logoInputs: string[],
): string {
  const decoder = plan.config.decoder ?? {};
  const common: string[] = [];
  if (!deinterlacedOnDecoder) {
    const crop = decoder.crop;
    if (crop) common.push(`crop=w=${crop.width}:h=${crop.height}:x=${crop.left}:y=${crop.top}`);
    const deinterlace = cpuDeinterlaceFilter(decoder.deinterlace, decoder.drop_second);
    if (deinterlace) common.push(deinterlace);
  }
  const chains: string[] = [];
  const branches = encoded.map((t) => `[s${t.key}]`);
  const split = encoded.length > 1 ? `split=${encoded.length}${branches.join('')}` : undefined;
  if (encoded.length === 1) {
    chains.push(`[0:v:0]${[...common, ...trackFilters(encoded[0]!.track)].join(',') || 'null'}`);
  } else {
    chains.push(`[0:v:0]${[...common, split].join(',')}`);
  }
  const out: string[] = [];
  encoded.forEach((t, i) => {
    const start =
      encoded.length === 1 ? chains[0]! : `${branches[i]}${trackFilters(t.track).join(',') || 'null'}`;
    const logo = usableLogo(t.track, plan.logoFile);
    if (!logo) {
      out.push(`${start},format=${pixelFormat(t.track)}[v${t.key}]`);
      return;
    }
    // The logo is one picture read as an input of its own; overlay repeats a finished input's last
    // frame (eof_action=repeat), so one decoded picture stays on every frame of the stream.
    logoInputs.push('-i', logo.file);
    const input = logoInputs.length / 2;
    out.push(
      `${start}[b${t.key}]`,
      `[b${t.key}][${input}:v]overlay=x=${logo.x}:y=${logo.y}:eof_action=repeat,format=${pixelFormat(t.track)}[v${t.key}]`,
    );
  });
  return encoded.length === 1 ? out.join(';') : [chains[0]!, ...out].join(';');
}

/** Scale (-1 or unset: follow the source's aspect) and frame rate of one rendition. */
function trackFilters(track: VideoTrack): string[] {
  const filters: string[] = [];
  const width = track.size?.width;
  const height = track.size?.height;
  const set = (v: number | undefined) => v !== undefined && v > 0;
  // -2 rather than -1: the auto side keeps the aspect rounded to an even number, which 4:2:0
  // encoders require.
  if (set(width) || set(height))
    filters.push(`scale=w=${set(width) ? width : -2}:h=${set(height) ? height : -2}`);
  if (track.fps) filters.push(`fps=${track.fps}`);
  return filters;
}

/**
 * x/y are ffmpeg expressions (the console writes the corner ones, LOGO_CORNERS in @sluice/api).
 * Only expression characters pass, commas escaped for the filter graph, so a value can never end
 * the overlay and start another filter.
 */
const EXPRESSION = /^[A-Za-z0-9_+\-*/(). ,]+$/;

function usableLogo(
  track: VideoTrack,
  logoFile: (path: string) => string | undefined,
): { file: string; x: string; y: string } | undefined {
  const logo = track.logo;
  if (!logo) return undefined;
  const file = logoFile(logo.path.trim());
  if (!file) return undefined;
  const x = logo.x?.trim() || '0';
  const y = logo.y?.trim() || '0';
  if (!EXPRESSION.test(x) || !EXPRESSION.test(y)) return undefined;
  const escape = (e: string) => e.replaceAll(' ', '').replaceAll(',', '\\,');
  return { file, x: escape(x), y: escape(y) };
}
