import { stat } from 'node:fs/promises';
import type { Config, Vod } from '@sluice/api';
import { HttpError } from '../http/errors.js';
import { codeOf, resolveInRoot } from './vod-paths.js';

/** One VOD location of the config: its prefix, its local directories in search order. */
export interface VodLocation {
  prefix: string;
  /**
   * The configured url strings, in order (what list_files' `path` may name), and the local
   * directory each one is (undefined for a url that is no local directory).
   */
  urls: readonly string[];
  roots: readonly (string | undefined)[];
  disabled: boolean;
  config: Vod;
}

/** The local directory a VOD url names: '/dir' or 'file:///dir'; undefined for anything else. */
export function rootOfUrl(url: string): string | undefined {
  const path = url.startsWith('file://') ? url.slice('file://'.length) : url;
  return path.startsWith('/') ? path : undefined;
}

/**
 * The config's `vods` by prefix. Built from each config the server runs (update); every lookup
 * after that is a Map read. `locate` is what playback uses to find a file; the files API uses
 * `root` to pick the directory a call names.
 */
export class VodRoots {
  private byPrefix = new Map<string, VodLocation>();
  /** Prefixes longest first: the first one that starts a name is the longest that does. */
  private longestFirst: string[] = [];

  constructor(config?: Config) {
    if (config) this.update(config);
  }

  update(config: Config): void {
    const next = new Map<string, VodLocation>();
    for (const [key, item] of Object.entries(config.vods ?? {})) {
      const prefix = item.prefix ?? key;
      const urls = (item.urls ?? []).map((u) => u.url);
      next.set(prefix, {
        prefix,
        urls,
        roots: urls.map(rootOfUrl),
        disabled: item.disabled === true,
        config: item,
      });
    }
    this.byPrefix = next;
    this.longestFirst = [...next.keys()].sort((a, b) => b.length - a.length);
  }

  /** The VOD with this prefix, if configured. */
  vod(prefix: string): VodLocation | undefined {
    return this.byPrefix.get(prefix);
  }

  prefixes(): string[] {
    return [...this.byPrefix.keys()];
  }

  /**
   * The directory `which` names among the VOD's urls: its 0-based index ('0', '1' …), or exactly
   * one of the url strings. HttpError 404 for an unknown prefix or source path, 400 for a url that
   * is no local directory.
   */
  root(prefix: string, which: string): { vod: VodLocation; root: string; index: number } {
    const vod = this.byPrefix.get(prefix);
    if (!vod) throw new HttpError(404, `no VOD location with prefix '${prefix}'`);
    let index = /^\d{1,6}$/.test(which) ? Number(which) : -1;
    if (index < 0 || index >= vod.urls.length) index = vod.urls.indexOf(which);
    if (index < 0)
      throw new HttpError(
        404,
        `VOD ${prefix} has no source path '${which}' (give its number from 0 to ${vod.urls.length - 1} or its url)`,
      );
    const root = vod.roots[index];
    if (root === undefined)
      throw new HttpError(400, `source path '${vod.urls[index]}' of VOD ${prefix} is not a local directory`);
    return { vod, root, index };
  }

  /**
   * The absolute path of the file `rel` (relative to each root, already decoded) of VOD `prefix`:
   * the first root, in order, holding it as a regular file, resolved inside that root (symlinks
   * out of it refused). Undefined when no root has it, or the prefix is unknown. HttpError 400/403
   * for a path that may not name anything inside a root.
   */
  async locate(prefix: string, rel: string): Promise<string | undefined> {
    const vod = this.byPrefix.get(prefix);
    if (!vod) return undefined;
    for (const root of vod.roots) {
      if (root === undefined) continue;
      let path: string;
      try {
        path = (await resolveInRoot(root, rel)).path;
      } catch (error) {
        // A missing root (an unmounted disk) hides nothing: the next root may have the file.
        if (error instanceof HttpError && error.statusCode === 404) continue;
        throw error;
      }
      try {
        if ((await stat(path)).isFile()) return path;
      } catch (error) {
        const code = codeOf(error);
        if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
      }
    }
    return undefined;
  }

  /**
   * The longest configured prefix that starts `name` ('/PREFIX/REST' or 'PREFIX/REST'; a prefix may
   * hold '/') and the rest after it; undefined when none does or nothing follows the prefix.
   */
  splitVodName(name: string): { prefix: string; rest: string } | undefined {
    const path = name.startsWith('/') ? name.slice(1) : name;
    for (const prefix of this.longestFirst) {
      if (prefix && path.startsWith(`${prefix}/`) && path.length > prefix.length + 1)
        return { prefix, rest: path.slice(prefix.length + 1) };
    }
    return undefined;
  }
}
