import { z } from 'zod';
import { auth, cache, drm, itemDvr, meta, port, positiveInt, seconds, thumbnails } from './common.js';
import { sourceList } from './stream.js';

/** A publishing location (`live PREFIX { … }`): streams published under PREFIX/NAME. */
export const location = z.looseObject({
  prefix: z.string().optional(),
  position: positiveInt.optional(),
  urls: sourceList.optional(),
  meta: meta.optional(),
  auth: auth.optional(),
  dvr: itemDvr.optional(),
  drm: drm.optional(),
  cache: cache.optional(),
  except: z.array(z.string()).optional(),
  clients_timeout: seconds.optional(),
  source_timeout: seconds.optional(),
  password: z.string().optional(),
  thumbnails: thumbnails.optional(),
});
export type Location = z.infer<typeof location>;

/** An origin mirror (`source URL… { … }`), keyed by its position. */
export const mirror = z.looseObject({
  position: positiveInt.optional(),
  urls: z.array(z.string().min(1, 'a mirror url must not be empty')).optional(),
  cluster_key: z.string().optional(),
  only: z.array(z.string()).optional(),
  except: z.array(z.string()).optional(),
  dvr: itemDvr.optional(),
  meta: meta.optional(),
  title: z.string().optional(),
  thumbnails: thumbnails.optional(),
  auth: auth.optional(),
  /** Seconds an on-demand mirrored stream keeps running after its last client (spec 001 §2 Mirror output). */
  clients_timeout: seconds.optional(),
});
export type Mirror = z.infer<typeof mirror>;

/** Video on demand storage (`file PREFIX { path /dir; }`). */
export const vod = z.looseObject({
  prefix: z.string().optional(),
  position: positiveInt.optional(),
  urls: z.array(z.looseObject({ url: z.string().min(1, 'a vod path must not be empty') })).optional(),
  read_queue: positiveInt.optional(),
  max_readers: positiveInt.optional(),
  download: z.boolean().optional(),
  auto_mbr: z.boolean().optional(),
  auth: auth.optional(),
  meta: meta.optional(),
  disabled: z.boolean().optional(),
});
export type Vod = z.infer<typeof vod>;

export const diskModes = ['keep', 'readonly', 'abandon', 'migrate', 'rescue'] as const;

/** A global DVR storage definition (`dvr NAME { … }`, spec 002 §3). */
export const dvr = z.looseObject({
  name: z.string().optional(),
  position: positiveInt.optional(),
  root: z.string().min(1, 'DVR root is required').optional(),
  raid: z.number().int().min(0).optional(),
  active: z.number().int().min(1).optional(),
  copy: z.string().optional(),
  index: z.string().optional(),
  no_index: z.boolean().optional(),
  schedule: z
    .array(z.tuple([z.number().int().min(0).max(2359), z.number().int().min(0).max(2359)]))
    .optional(),
  disks: z
    .record(
      z.string(),
      z.looseObject({ position: positiveInt.optional(), mode: z.enum(diskModes).optional() }),
    )
    .optional(),
  disk_limit: z.number().min(0).max(100).optional(),
  disk_space: z.number().min(0).optional(),
  dvr_limit: z.number().min(0).optional(),
});
export type Dvr = z.infer<typeof dvr>;

/** A named authorisation backend (`auth_backend NAME { … }`, spec 002 §3). */
const authLists = z.looseObject({
  ips: z.array(z.string()).optional(),
  tokens: z.array(z.string()).optional(),
  countries: z.array(z.string()).optional(),
  uas: z.array(z.string()).optional(),
});
export const authBackend = z.looseObject({
  name: z.string().optional(),
  position: positiveInt.optional(),
  allow_default: z.boolean().optional(),
  allow: authLists.optional(),
  deny: authLists.optional(),
  backends: z.array(z.looseObject({ url: z.string().min(1, 'a backend url must not be empty') })).optional(),
});
export type AuthBackend = z.infer<typeof authBackend>;

/** A cluster peer (`peer host:port;`), keyed by host name. */
export const peer = z.looseObject({
  name: z.string().optional(),
  port: port.optional(),
  position: positiveInt.optional(),
});
export type Peer = z.infer<typeof peer>;

/** A web script (`web_script PREFIX PATH k=v;`), keyed by prefix. */
export const webScript = z.looseObject({
  prefix: z.string().optional(),
  path: z.string().min(1, 'a web script path must not be empty').optional(),
  extra: z.record(z.string(), z.string()).optional(),
  position: positiveInt.optional(),
});
export type WebScript = z.infer<typeof webScript>;

export const plugins = z.looseObject({
  iptv: z.looseObject({ database: z.string().optional() }).optional(),
  vsaas: z.looseObject({ database: z.string().optional(), endpoint: z.string().optional() }).optional(),
  rproxy: z
    .looseObject({ endpoint_auth: z.string().optional(), streampoint_key: z.string().optional() })
    .optional(),
});

export const credentials = z.looseObject({
  login: z.string().min(1, 'login must not be empty'),
  password: z.string().min(1, 'password must not be empty'),
});
