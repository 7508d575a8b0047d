import { createCipheriv } from 'node:crypto';
import type { Stream } from '@sluice/api';
import { fetchKey } from './keyserver.js';

export type Drm = NonNullable<Stream['drm']>;

/** The DRM vendors this server applies for real (server info capabilities.drm_applied). */
export const DRM_APPLIED = ['aes128'] as const;

/**
 * One key covers this many segments (key rotation): with 2 s segments, 10 minutes. A key id is
 * floor(sequence / KEY_ROTATION_SEGMENTS); the playlist carries an EXT-X-KEY where it changes.
 */
export const KEY_ROTATION_SEGMENTS = 300;
/** Keys remembered (per stream and key id); a fetched key is used for the whole of its period. */
const MAX_KEYS = 10_000;

export const keyIdOf = (sequence: number): number => Math.floor(sequence / KEY_ROTATION_SEGMENTS);
export const keyUri = (keyId: number): string => `key-${keyId}.key`;

export interface Aes128Deps {
  /** The key Sluice makes itself when the stream names no keyserver: HMAC of its own secret. */
  ownKey: (name: string, keyId: number) => Buffer;
}

/**
 * HLS AES-128 (RFC 8216 §5.2): each segment is encrypted whole with AES-128-CBC (PKCS7 padding);
 * the IV is the segment's media sequence number (no IV attribute), so the playlist needs a key
 * line only where the key changes. Keys come from drm.keyserver (fetched once per key id and
 * kept), or, with no keyserver, are derived from the server's secret; players get them from
 * /{name}/key-{id}.key, a playback URL under the same play authorization as the segments.
 */
export class Aes128 {
  private readonly keys = new Map<string, Promise<Buffer>>();
  private readonly encrypted = new WeakMap<Buffer, { key: Buffer; data: Buffer }>();

  constructor(private readonly deps: Aes128Deps) {}

  static applies(drm: Drm | undefined): boolean {
    return drm?.vendor === 'aes128';
  }

  /** The key of `keyId`; rejects when the keyserver gives none. */
  key(name: string, drm: Drm, drmId: string | undefined, keyId: number): Promise<Buffer> {
    const server = drm.keyserver?.trim();
    if (!server) return Promise.resolve(this.deps.ownKey(name, keyId));
    const cacheKey = `${name}\0${server}\0${drmId ?? ''}\0${keyId}`;
    let key = this.keys.get(cacheKey);
    if (!key) {
      if (this.keys.size >= MAX_KEYS) this.keys.delete(this.keys.keys().next().value!);
      key = fetchKey(server, { name, keyId, drmId });
      this.keys.set(cacheKey, key);
      // A failed fetch is tried again by the next request.
      key.catch(() => this.keys.delete(cacheKey));
    }
    return key;
  }

  /** The segment encrypted with `key` (kept while the segment is). */
  encrypt(data: Buffer, key: Buffer, sequence: number): Buffer {
    const done = this.encrypted.get(data);
    if (done && done.key.equals(key)) return done.data;
    const cipher = createCipheriv('aes-128-cbc', key, ivOf(sequence));
    const out = Buffer.concat([cipher.update(data), cipher.final()]);
    this.encrypted.set(data, { key, data: out });
    return out;
  }
}

/** RFC 8216 §5.2: with no IV attribute, the IV is the media sequence number, big-endian in 16 bytes. */
export function ivOf(sequence: number): Buffer {
  const iv = Buffer.alloc(16);
  iv.writeBigUInt64BE(BigInt(sequence), 8);
  return iv;
}

/** Adds EXT-X-KEY lines to a media playlist: before the first segment and where the key changes. */
export function withKeys(playlist: string, query: string, keyPrefix = ''): string {
  const lines = playlist.split('\n');
  const out: string[] = [];
  let block: string[] = [];
  let current: number | undefined;
  let inHeader = true;
  for (const line of lines) {
    if (inHeader && (line.startsWith('#EXTINF') || line === '#EXT-X-DISCONTINUITY')) inHeader = false;
    if (inHeader) {
      out.push(line);
      continue;
    }
    const match = /^seg-(\d+)\.ts/.exec(line);
    if (!match) {
      block.push(line);
      continue;
    }
    const keyId = keyIdOf(Number(match[1]));
    if (keyId !== current) {
      out.push(`#EXT-X-KEY:METHOD=AES-128,URI="${keyPrefix}${keyUri(keyId)}${query}"`);
      current = keyId;
    }
    out.push(...block, line);
    block = [];
  }
  out.push(...block);
  return out.join('\n');
}
