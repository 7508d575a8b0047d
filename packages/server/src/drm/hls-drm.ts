import type { Config } from '@sluice/api';
import { Aes128, type Drm, keyIdOf, withKeys } from './aes128.js';

/** The DRM settings of a stream (its own, else its publishing location's). */
export function drmFor(config: Config, name: string): { drm: Drm; drmId: string | undefined } | undefined {
  const stream = config.streams?.[name];
  if (stream) return stream.drm ? { drm: stream.drm, drmId: metaDrmId(stream.meta) } : undefined;
  let best: string | undefined;
  for (const prefix of Object.keys(config.lives ?? {}))
    if (name.startsWith(`${prefix}/`) && (!best || prefix.length > best.length)) best = prefix;
  const location = best ? config.lives![best]! : undefined;
  return location?.drm ? { drm: location.drm, drmId: metaDrmId(location.meta) } : undefined;
}

function metaDrmId(meta: unknown): string | undefined {
  if (typeof meta !== 'object' || meta === null) return undefined;
  const id = (meta as Record<string, unknown>).drm_id;
  return typeof id === 'string' && id !== '' ? id : undefined;
}

/**
 * What playback asks about DRM: whether a stream's HLS is encrypted (drm.vendor aes128), its
 * playlist with key lines, its segments encrypted, its keys. Other vendors are stored only.
 */
export class HlsDrm {
  constructor(
    private readonly config: () => Config,
    private readonly aes: Aes128,
  ) {}

  encrypted(name: string): boolean {
    return Aes128.applies(drmFor(this.config(), name)?.drm);
  }

  playlist(name: string, body: string, query: string, keyPrefix = ''): string {
    return this.encrypted(name) ? withKeys(body, query, keyPrefix) : body;
  }

  async segment(name: string, sequence: number, data: Buffer): Promise<Buffer> {
    const settings = drmFor(this.config(), name);
    if (!settings || !Aes128.applies(settings.drm)) return data;
    const key = await this.aes.key(name, settings.drm, settings.drmId, keyIdOf(sequence));
    return this.aes.encrypt(data, key, sequence);
  }

  /** The key of a rotation period; undefined when the stream is not encrypted. */
  async key(name: string, keyId: number): Promise<Buffer | undefined> {
    const settings = drmFor(this.config(), name);
    if (!settings || !Aes128.applies(settings.drm)) return undefined;
    return this.aes.key(name, settings.drm, settings.drmId, keyId);
  }
}
