import { spawn } from 'node:child_process';
import { TS_CLOCK } from '../media/ts-packet.js';
import type { TeletextTrack } from './teletext-tracks.js';

/** One ffmpeg run may take this long on a loaded machine before it is given up (the cue list is empty). */
const CONVERT_TIMEOUT_MS = 20_000;
/** WebVTT text past this per track and segment is a broken source, not subtitles. */
const OUTPUT_MAX_BYTES = 256 * 1024;

export interface Cue {
  /** Seconds on the source's PTS clock (ffmpeg -copyts). */
  startS: number;
  text: string;
}

/**
 * The teletext pages of `ts` as cues per track, read by ffmpeg's libzvbi decoder (`-txt_format
 * text`, `-c:s webvtt`) in one run for every track (each on its own pipe). ffmpeg times a teletext
 * page by its arrival (the PCR, EN 300 472 §4.3), and ends none: a page stays until the next one.
 */
export function teletextCues(ts: Buffer, tracks: readonly TeletextTrack[]): Promise<Cue[][]> {
  const outputs = tracks.flatMap((track, i) => [
    ...['-map', `0:i:${track.pid}`, '-c:s', 'webvtt', '-f', 'webvtt', `pipe:${3 + i}`],
  ]);
  const args = [
    ...['-hide_banner', '-loglevel', 'error', '-nostdin'],
    ...['-txt_format', 'text', '-txt_page', tracks.map((t) => t.page).join(',')],
    ...['-copyts', '-f', 'mpegts', '-i', 'pipe:0', ...outputs],
  ];
  return new Promise((resolve) => {
    const child = spawn('ffmpeg', args, {
      stdio: ['pipe', 'ignore', 'ignore', ...tracks.map(() => 'pipe' as const)],
    });
    const texts = tracks.map(() => '');
    tracks.forEach((_track, i) => {
      const stream = child.stdio[3 + i] as NodeJS.ReadableStream;
      stream.setEncoding('utf8');
      stream.on('data', (text: string) => {
        if (texts[i]!.length < OUTPUT_MAX_BYTES) texts[i] += text;
      });
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), CONVERT_TIMEOUT_MS);
    child.on('error', () => undefined);
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(ts);
    child.on('close', () => {
      clearTimeout(timer);
      resolve(texts.map(parseCues));
    });
  });
}

const TIME = String.raw`(?:(\d+):)?(\d{2}):(\d{2})\.(\d{3})`;
const CUE = new RegExp(String.raw`^${TIME} --> \S+[^\n]*\n([\s\S]*?)(?:\n\n|\n?$)`, 'gm');

/** The cues of ffmpeg's WebVTT output: start time and text (the end is the next page's start). */
function parseCues(vtt: string): Cue[] {
  const cues: Cue[] = [];
  for (const m of vtt.replaceAll('\r\n', '\n').matchAll(CUE)) {
    const startS = Number(m[1] ?? 0) * 3600 + Number(m[2]) * 60 + Number(m[3]) + Number(m[4]) / 1000;
    cues.push({ startS, text: m[5]!.trim() });
  }
  return cues;
}

/**
 * One HLS segment's WebVTT (RFC 8216 §3.5): the cues showing during [start, start + duration) of
 * the video, clipped to it, timed from the segment's first video PTS as the timestamp map says.
 */
export function segmentVtt(cues: readonly Cue[], videoPts: number, durationMs: number): string {
  const startS = videoPts / TS_CLOCK;
  const endS = startS + durationMs / 1000;
  const lines = ['WEBVTT', `X-TIMESTAMP-MAP=MPEGTS:${videoPts},LOCAL:00:00:00.000`, ''];
  cues.forEach((cue, i) => {
    const until = cues[i + 1]?.startS ?? Number.POSITIVE_INFINITY;
    if (!cue.text || cue.startS >= endS || until <= startS) return;
    const from = Math.max(cue.startS, startS) - startS;
    const to = Math.min(until, endS) - startS;
    lines.push(`${vttTime(from)} --> ${vttTime(to)}`, cue.text, '');
  });
  return `${lines.join('\n')}\n`;
}

function vttTime(seconds: number): string {
  const ms = Math.max(0, Math.round(seconds * 1000));
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}.${pad(ms % 1000, 3)}`;
}
