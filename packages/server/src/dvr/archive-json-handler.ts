import type { IncomingMessage, ServerResponse } from 'node:http';
import type { MediaInfo } from '@sluice/api';
import type { ArchiveIndex } from './archive-index.js';
import {
  type JsonAnswer,
  mediaInfoOf,
  type ProbedTrack,
  rangesJson,
  recordingStatusJson,
} from './archive-json.js';
import { runOnce } from './archive-ffmpeg.js';
import { refuseJson, sendJson } from './archive-respond.js';

/** ffprobe of one segment takes a fraction of a second; one stuck longer is killed. */
const PROBE_TIMEOUT_MS = 10_000;

/** ranges.json, recording_status.json, media_info.json of a stream with an archive. */
export async function serveJson(
  deps: {
    stream: (name: string) => { mediaInfo?: MediaInfo } | undefined;
    ffmpegPath: string;
    env: NodeJS.ProcessEnv;
  },
  name: string,
  what: 'ranges' | 'recording_status' | 'media_info' | 'info',
  index: ArchiveIndex,
  params: URLSearchParams,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  let answer: JsonAnswer;
  if (what === 'ranges') answer = rangesJson(index.ranges(), params);
  else if (what === 'recording_status') answer = recordingStatusJson(name, index.ranges(), params);
  else answer = { body: deps.stream(name)?.mediaInfo ?? (await probedMediaInfo(index, deps)) };
  if ('error' in answer) return refuseJson(res, answer.status, answer.error);
  sendJson(req, res, answer.body);
}

/** A stream that is not running now: its tracks as its newest archive segment holds them. */
async function probedMediaInfo(
  index: ArchiveIndex,
  run: { ffmpegPath: string; env: NodeJS.ProcessEnv },
): Promise<MediaInfo> {
  if (index.count === 0) return { tracks: [] };
  // ffprobe is installed beside ffmpeg (the same package).
  const ffprobe = run.ffmpegPath.replace(/ffmpeg(\.exe)?$/, 'ffprobe$1');
  const args = ['-hide_banner', '-loglevel', 'error', '-of', 'json', '-show_streams'];
  const result = await runOnce(
    ffprobe,
    [...args, index.pathOf(index.at(index.count - 1))],
    run.env,
    PROBE_TIMEOUT_MS,
  );
  if (result.code !== 0) return { tracks: [] };
  try {
    return mediaInfoOf((JSON.parse(result.stdout.toString()) as { streams: ProbedTrack[] }).streams ?? []);
  } catch {
    return { tracks: [] };
  }
}
