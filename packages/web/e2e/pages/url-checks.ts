import { spawn } from 'node:child_process';
import { expect, type Page } from '@playwright/test';

/** What each playback URL shape answers with (docs/media.md), by the end of its path. */
const CONTENT_TYPES: [RegExp, RegExp][] = [
  [/\.m3u8$/, /^application\/vnd\.apple\.mpegurl/],
  [/\/mpegts$/, /^video\/mp2t/],
  [/\.mpd$/, /^application\/dash\+xml/],
  [/\.isml\/manifest$/, /^text\/xml/],
];

/** The values of every read-only URL field on the page: `hls url`, `rtmp url`, `RTMP publish url`… */
export async function shownUrls(page: Page, labelEnd = ' url'): Promise<string[]> {
  const fields = page.locator(`input[aria-label$="${labelEnd}"][readonly]`);
  await expect(fields.first()).toBeVisible();
  return fields.evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value));
}

/** An HTTP playback URL answers 200 with the content type of its shape (the body is not waited for). */
export async function expectHttpPlays(url: string): Promise<void> {
  const abort = new AbortController();
  try {
    const response = await fetch(url, { signal: abort.signal });
    expect(response.status, url).toBe(200);
    const type = CONTENT_TYPES.find(([path]) => path.test(new URL(url).pathname))?.[1];
    expect(type, `a known URL shape: ${url}`).toBeDefined();
    expect(response.headers.get('content-type') ?? '', url).toMatch(type!);
  } finally {
    abort.abort();
  }
}

/** The kinds of tracks ffprobe finds at `url` (a player's first second), or its error text. */
export function probeTracks(url: string): Promise<{ tracks: string[]; error: string }> {
  return new Promise((resolve) => {
    const child = spawn('ffprobe', [
      ...['-v', 'error', '-rw_timeout', '15000000'],
      ...['-show_entries', 'stream=codec_type', '-of', 'csv=p=0', url],
    ]);
    let out = '';
    let error = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (error += d.toString()));
    // A refused play may leave ffprobe waiting: it gets the budget of a loaded machine, then ends.
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve({ tracks: out.split('\n').filter(Boolean), error });
    });
  });
}

/** An RTMP play URL plays: ffprobe reads a video track from it. */
export async function expectRtmpPlays(url: string): Promise<void> {
  const { tracks, error } = await probeTracks(url);
  expect(tracks, `${url}: ${error}`).toContain('video');
}

/**
 * A Smooth Streaming manifest URL plays (ffprobe reads no MSS): the manifest lists a video
 * StreamIndex, and its first listed fragment answers with a moof holding a tfxd (PIFF uuid box).
 */
export async function expectMssPlays(url: string): Promise<void> {
  const manifest = await (await fetch(url)).text();
  expect(manifest, url).toMatch(/<SmoothStreamingMedia [^>]*IsLive="TRUE"/);
  const video = /<StreamIndex Type="video"[^>]*Url="([^"]+)"[^]*?Bitrate="(\d+)"[^]*?<c t="(\d+)"/.exec(
    manifest,
  );
  expect(video, `${url}: a video StreamIndex with a chunk`).not.toBeNull();
  const [, template, bitrate, time] = video as unknown as [string, string, string, string];
  const fragmentUrl = new URL(
    template.replace('{bitrate}', bitrate).replace('{start time}', time),
    url.replace(/manifest$/, ''),
  );
  const response = await fetch(fragmentUrl);
  expect(response.status, fragmentUrl.href).toBe(200);
  const bytes = Buffer.from(await response.arrayBuffer());
  expect(bytes.toString('latin1', 4, 8), fragmentUrl.href).toBe('moof');
  expect(bytes.includes(Buffer.from('6d1d9b0542d544e680e2141daff757b2', 'hex')), 'tfxd').toBe(true);
}
