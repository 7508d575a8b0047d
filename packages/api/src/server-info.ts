import { z } from 'zod';

/** GET /flussonic/api/server: who this server is and what it can do. */
export const serverInfo = z.looseObject({
  product: z.literal('sluice'),
  version: z.string(),
  build: z.number(),
  hostname: z.string(),
  /** true when the console should show the chassis menu (spec 000 §2). */
  chassis: z.boolean(),
  capabilities: z.looseObject({
    /** publish:// source urls accepted in a stream's urls (spec 000 §4 Publishing). */
    url_publish: z.boolean(),
    /** Output protocols this server actually serves; the console hides the rest. */
    outputs: z.array(z.string()),
    /** DRM vendors applied for real, as opposed to only stored. */
    drm_applied: z.array(z.string()),
  }),
  /**
   * A token that lets the console's players play any stream past play authorization (spec 001 §6,
   * §7 player iframe: `?token=`). HMAC of the server's own secret (in the data folder), not the
   * password; present only for callers with credentials.
   */
  admin_token: z.string().optional(),
  /** What the caller's credentials allow: `view` (view_auth) reads only, so the console offers no changes. */
  access: z.enum(['edit', 'view']).optional(),
  /**
   * The TLS certificate every TLS port serves (HTTPS, RTMPS, RTSPS): no key material. `self_signed`
   * while no real one was installed (made at first start); `file` is where it lives beside the config.
   */
  certificate: z
    .looseObject({
      subject: z.string(),
      issuer: z.string(),
      domains: z.array(z.string()),
      not_before: z.string(),
      not_after: z.string(),
      self_signed: z.boolean(),
      file: z.string(),
    })
    .optional(),
  transcoder_devices: z.array(z.looseObject({ id: z.number(), type: z.enum(['coder', 'nvenc', 'qsv']) })),
});
export type ServerInfo = z.infer<typeof serverInfo>;
