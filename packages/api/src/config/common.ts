import { z } from 'zod';

/**
 * Building blocks shared by every config section. Objects are "loose": keys this version does not
 * know are kept as they are, so an operator's or a newer console's settings are never dropped.
 */

/** A name that appears in URLs and file paths: no whitespace, no `..` segment, no leading slash. */
export const mediaName = z
  .string()
  .min(1, 'must not be empty')
  .max(512, 'must be at most 512 characters')
  .regex(/^[A-Za-z0-9_.~@:+-][A-Za-z0-9_.~@:+/-]*$/, 'may hold only letters, digits and _ . ~ @ : + - /')
  .refine(
    (s) => !s.split('/').includes('..') && !s.split('/').includes('.'),
    'must not contain . or .. segments',
  )
  .refine((s) => !s.endsWith('/') && !s.includes('//'), 'must not end with / or contain //');

export const port = z.number().int().min(1, 'a port is 1 to 65535').max(65535, 'a port is 1 to 65535');
export const portList = z.array(port);
export const positiveInt = z.number().int().min(0);
export const seconds = z.number().min(0);

/** Free key/value options, as the key/value editor of spec 001 §5 edits them. */
export const extraOptions = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]));

export const meta = z.looseObject({
  comment: z.string().optional(),
  drm_id: z.string().optional(),
  iptv: z.boolean().optional(),
});

export const thumbnails = z.looseObject({
  enabled: z.boolean().optional(),
  url: z.string().optional(),
});

export const cache = z.looseObject({
  path: z.string().optional(),
  disk_limit: z.number().min(0).optional(),
  time_limit: z.number().min(0).optional(),
});

export const auth = z.looseObject({
  url: z.string().optional(),
  extra: extraOptions.optional(),
  domains: z.array(z.string()).optional(),
  allowed_countries: z.array(z.string().regex(/^[A-Z]{2}$/, 'a country is two capital letters')).optional(),
  disallowed_countries: z
    .array(z.string().regex(/^[A-Z]{2}$/, 'a country is two capital letters'))
    .optional(),
  max_sessions: positiveInt.optional(),
});

export const drmVendors = [
  'aes128',
  'sample_aes',
  'conax',
  'keyos',
  'widevine',
  'ezdrm',
  'ezdrm_classic',
  'pallycon',
  'gsdrm',
  'irdeto',
] as const;

export const drm = z.looseObject({
  vendor: z.enum(drmVendors).optional(),
  resource_id: z.string().optional(),
  keyserver: z.string().optional(),
  user_keyserver: z.string().optional(),
  aes_key: z.string().optional(),
  iv: z.string().optional(),
  signer: z.string().optional(),
  content_id: z.string().optional(),
  enc_token: z.string().optional(),
  user: z.string().optional(),
  password: z.string().optional(),
  ic_host: z.string().optional(),
  account_id: z.string().optional(),
  user_name: z.string().optional(),
  userkey: z.string().optional(),
});

/** Per-item DVR settings (spec 001 §3). disk_limit is a percent, disk_space bytes, dvr_limit seconds. */
export const itemDvr = z.looseObject({
  root: z.string().optional(),
  reference: z.string().optional(),
  disk_limit: z.number().min(0).max(100).optional(),
  disk_space: z.number().min(0).optional(),
  dvr_limit: z.number().min(0).optional(),
  dvr_replicate: z.boolean().optional(),
  replication_port: port.optional(),
});

export const logo = z.looseObject({
  path: z.string().optional(),
  height: z.number().optional(),
  width: z.number().optional(),
  left: z.number().optional(),
  top: z.number().optional(),
});

/** protocols: protocol name → true (only), false (except); absent means default. */
export const protocols = z.record(z.string(), z.boolean());
