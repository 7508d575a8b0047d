import { dirname, resolve } from 'node:path';
import type { Config } from '@sluice/api';
import { rootOfUrl } from '../vod/vod-roots.js';

/**
 * The folders whose filesystems Pulse reports (issue 21: the partitions the config uses): the
 * config's own folder, every DVR root (global storages and items' own, resolved as dvr/ does)
 * and every local VOD folder. Walked once per config, not each second: 20,000 streams.
 */
export function sampledPaths(configPath: string): (config: Config) => string[] {
  const base = dirname(resolve(configPath));
  let seen: Config | undefined;
  let paths: string[] = [];
  return (config) => {
    if (config === seen) return paths;
    seen = config;
    const found = new Set<string>([base]);
    const add = (path: string | undefined) => {
      if (path) found.add(resolve(path));
    };
    for (const dvr of Object.values(config.dvrs ?? {})) add(dvr.root);
    for (const section of [config.streams, config.lives, config.sources])
      for (const item of Object.values(section ?? {})) add(item.dvr?.root);
    for (const vod of Object.values(config.vods ?? {})) for (const u of vod.urls ?? []) add(rootOfUrl(u.url));
    paths = [...found];
    return paths;
  };
}
