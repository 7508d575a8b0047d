import { execFileSync } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunningServer } from './harness.js';

/** A real mp4 an operator would upload: `seconds` long, smaller than the live stream, mono 44.1 kHz. */
export async function makeAdFile(dir: string, name: string, seconds: number): Promise<string> {
  await mkdir(dir, { recursive: true });
  const path = join(dir, name);
  execFileSync('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'smptebars=size=160x90:rate=25'],
    ...['-f', 'lavfi', '-i', 'sine=frequency=300:sample_rate=44100', '-t', String(seconds)],
    ...['-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac', '-shortest', path],
  ]);
  return path;
}

/** 'HH:mm:ss' of `ms` in this machine's (the server's) local time. */
export function localTimeOfDay(ms: number): string {
  const d = new Date(ms);
  return [d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
}

export async function saveAdSchedules(server: RunningServer, schedules: unknown): Promise<void> {
  const response = await server.api('/flussonic/api/save_ad_schedules', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(schedules),
  });
  if (!response.ok) throw new Error(`save_ad_schedules: ${response.status} ${await response.text()}`);
}

export type AdCounts = Record<string, { name: string; show_count: number; view_count: number }[]>;

export async function adCounts(server: RunningServer): Promise<AdCounts> {
  return (await (await server.api('/flussonic/api/ad_streams')).json()) as AdCounts;
}

/** The EXT-X-DATERANGE tags of a playlist, attributes by name. */
export function dateRanges(playlist: string): Record<string, string>[] {
  return playlist
    .split('\n')
    .filter((l) => l.startsWith('#EXT-X-DATERANGE:'))
    .map((l) =>
      Object.fromEntries(
        [...l.slice('#EXT-X-DATERANGE:'.length).matchAll(/([A-Z0-9-]+)=("[^"]*"|[^,]*)/g)].map((m) => [
          m[1]!,
          m[2]!.replace(/^"|"$/g, ''),
        ]),
      ),
    );
}
