import { realpathSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { Config } from '@sluice/api';
import { VodRoots } from '../vod/vod-roots.js';
import { checkRelativePath, codeOf, isInside } from '../vod/vod-paths.js';

/** The config an ad file is looked up in (the contract's name for it). */
export type SluiceConfig = Config;

/** The extensions spec 002 lists as video files an ad schedule may hold (lower case). */
export const AD_VIDEO_EXTENSIONS: readonly string[] = [
  '.mp4',
  '.f4v',
  '.mov',
  '.m4v',
  '.mp4a',
  '.3gp',
  '.3g2',
];

/**
 * The file on disk that an ad schedule's file name ('prefix/rel/path', a VOD name) is: its prefix
 * among the config's VOD locations (the longest that starts the name, as VOD playback picks it),
 * then the first of that location's local folders that holds it as a regular file. The relative
 * part passes the VOD files API's lexical check (no '..', no absolute path, no NUL or control
 * characters, no percent-escape left), and its real path (symlinks followed) must stay inside the
 * folder's real path. Synchronous: it runs once per slot and per conform, never per viewer.
 * The error names the file as the schedule does, never the server's own path.
 */
export function resolveAdFile(config: SluiceConfig, name: string): { path: string } | { error: string } {
  if (typeof name !== 'string' || name === '') return { error: 'the ad file has no name' };
  const shown = JSON.stringify(name.slice(0, 200));
  const ext = extname(name).toLowerCase();
  if (!AD_VIDEO_EXTENSIONS.includes(ext))
    return { error: `ad file ${shown} is not a video file (${AD_VIDEO_EXTENSIONS.join(' ')})` };
  const roots = new VodRoots(config);
  const split = roots.splitVodName(name);
  if (!split) return { error: `ad file ${shown} is in no VOD location` };
  const location = roots.vod(split.prefix);
  if (!location) return { error: `ad file ${shown} is in no VOD location` };
  if (location.disabled) return { error: `ad file ${shown} is in a disabled VOD location` };
  const check = checkRelativePath(split.rest);
  if ('error' in check) return { error: `ad file ${shown}: ${check.error}` };
  for (const root of location.roots) {
    if (root === undefined) continue;
    let rootReal: string;
    try {
      rootReal = realpathSync(root);
    } catch {
      continue; // An unmounted folder hides nothing: the next one may have the file.
    }
    let real: string;
    try {
      real = realpathSync(join(rootReal, ...check.parts));
    } catch (error) {
      const code = codeOf(error);
      if (code === 'ENOENT' || code === 'ENOTDIR') continue;
      return { error: `ad file ${shown} can't be resolved: ${code}` };
    }
    if (!isInside(rootReal, real) || real === rootReal)
      return { error: `ad file ${shown} leads outside its VOD folder` };
    try {
      if (statSync(real).isFile()) return { path: real };
    } catch (error) {
      return { error: `ad file ${shown} can't be read: ${codeOf(error)}` };
    }
  }
  return { error: `ad file ${shown} is not found` };
}
