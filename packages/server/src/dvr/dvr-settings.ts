import { resolve } from 'node:path';
import type { Config, Dvr, Stream } from '@sluice/api';
import { raidDisks, type RaidDisk } from './disk-modes.js';

type ItemDvr = NonNullable<Stream['dvr']>;

/** What recording and retention need for one stream, with the global storage's values filled in. */
export interface DvrSettings {
  /** Absolute root; the stream's folder is ROOT/NAME (layout.ts). */
  root: string;
  /** Archive depth kept (dvr_limit, seconds). */
  dvrLimitSeconds: number | undefined;
  /** Delete the oldest while the partition is fuller than this (disk_limit, percent). */
  diskLimitPercent: number | undefined;
  /** Delete the oldest while this stream's archive is larger (disk_space, bytes). */
  diskSpaceBytes: number | undefined;
  /** The global storage (`dvr @NAME`) the settings come from, if any. */
  storage: (Dvr & { name: string }) | undefined;
  /** RAID 0: the storage's disks (ROOT/DISK), segments spread over them; undefined: one folder. */
  disks?: RaidDisk[] | undefined;
  /** RAID 0: how many disks are written at once (`active`). */
  activeDisks?: number | undefined;
}

/**
 * An item's `dvr` with its reference resolved: the item's own limits win over the global
 * storage's; the root is the item's own, else the storage's. Undefined when there is no root to
 * write to (no dvr, a reference to a storage that does not exist or has no root).
 */
export function resolveDvr(item: ItemDvr | undefined, dvrs: Config['dvrs']): DvrSettings | undefined {
  if (!item) return undefined;
  const name = item.reference?.replace(/^@/, '');
  const storage = name !== undefined ? dvrs?.[name] : undefined;
  const root = item.root || storage?.root;
  if (!root) return undefined;
  const disks = item.root ? undefined : raidDisks(storage, resolve(root));
  return {
    root: resolve(root),
    ...(disks ? { disks, activeDisks: storage?.active } : {}),
    dvrLimitSeconds: item.dvr_limit ?? storage?.dvr_limit,
    diskLimitPercent: item.disk_limit ?? storage?.disk_limit,
    diskSpaceBytes: item.disk_space ?? storage?.disk_space,
    storage: storage && name !== undefined ? { ...storage, name } : undefined,
  };
}

/** Where archives of streams that are not in the config (published, mirrored) may be found. */
export interface DvrScope {
  /** Config key of the location (`lives`) or mirror (`sources`) the settings come from. */
  owner: { section: 'lives' | 'sources'; key: string };
  settings: DvrSettings;
}

/**
 * The DVR settings of stream `name`: its own (a configured stream), its location's (a published
 * stream PREFIX/NAME, longest prefix first as publishing routes it), or its mirror's (`mirrorOf`
 * says which mirror shows a mirrored stream; the mirror poller knows, the config does not).
 */
export function dvrSettingsOf(
  config: Config,
  name: string,
  mirrorOf: (name: string) => string | undefined,
): DvrSettings | undefined {
  const stream = config.streams?.[name];
  if (stream) return resolveDvr(stream.dvr, config.dvrs);
  const prefixes = Object.keys(config.lives ?? {}).sort((a, b) => b.length - a.length);
  const prefix = prefixes.find((p) => name.startsWith(`${p}/`));
  if (prefix !== undefined) return resolveDvr(config.lives?.[prefix]?.dvr, config.dvrs);
  const position = mirrorOf(name);
  if (position !== undefined) return resolveDvr(config.sources?.[position]?.dvr, config.dvrs);
  return undefined;
}

/** Locations and mirrors with dvr: their published or mirrored streams' archives are read at start. */
export function dvrScopes(config: Config): DvrScope[] {
  const scopes: DvrScope[] = [];
  for (const [key, location] of Object.entries(config.lives ?? {})) {
    const settings = resolveDvr(location.dvr, config.dvrs);
    if (settings) scopes.push({ owner: { section: 'lives', key }, settings });
  }
  for (const [key, mirror] of Object.entries(config.sources ?? {})) {
    const settings = resolveDvr(mirror.dvr, config.dvrs);
    if (settings) scopes.push({ owner: { section: 'sources', key }, settings });
  }
  return scopes;
}

/** Two settings that write to the same place under the same limits. */
export function sameSettings(a: DvrSettings | undefined, b: DvrSettings | undefined): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
