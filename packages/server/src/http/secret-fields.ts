/**
 * Every config (and live view) field that may carry a secret, in one table: what view-only callers
 * must not read (http/redact.ts applies it; the tests plant a secret in each entry, and a schema
 * walk fails when a field that looks secret is in neither this table nor NOT_SECRET).
 *
 * Paths are dot-separated; `*` is any key of a keyed section, `[]` any item of an array.
 * - secret: the value (or each string of a list) becomes HIDDEN;
 * - url: a password in the userinfo, a query value whose name looks secret and a securetoken key
 *   become HIDDEN, the rest of the url stays (the console still shows where a source points);
 * - text: free text (an error message) with the urls in it treated as `url`;
 * - options: free key/value options; a value whose key looks secret becomes HIDDEN;
 * - omit: left out whole (the admin and view credentials: nothing of them is the viewer's business).
 */
export type SecretKind = 'secret' | 'url' | 'text' | 'options' | 'omit';

const auth = { 'auth.url': 'url', 'auth.extra': 'options' } as const;
const drm = {
  'drm.aes_key': 'secret',
  'drm.iv': 'secret',
  'drm.signer': 'secret',
  'drm.enc_token': 'secret',
  'drm.password': 'secret',
  'drm.userkey': 'secret',
  'drm.keyserver': 'url',
  'drm.user_keyserver': 'url',
} as const;
/** Runtime figures written beside an item's config: the active source and push errors quote urls. */
const stats = {
  'stats.url': 'url',
  'stats.source_error': 'text',
  'stats.pushes[].url': 'url',
  'stats.pushes[].error': 'text',
} as const;

const under = (prefix: string, fields: Record<string, SecretKind>): Record<string, SecretKind> =>
  Object.fromEntries(Object.entries(fields).map(([path, kind]) => [`${prefix}.${path}`, kind]));

export const SECRET_FIELDS: Readonly<Record<string, SecretKind>> = {
  edit_auth: 'omit',
  view_auth: 'omit',
  cluster_key: 'secret',
  // Reads /metrics: nothing of it is a view-only caller's business.
  metrics_token: 'omit',
  // Reads the SNMP counters: a shared secret like metrics_token.
  snmp_community: 'omit',
  // Paths as a rule, but a database or log target may be given as a url with a password.
  pulsedb: 'url',
  session_log: 'url',
  // A support endpoint may carry its token in the query.
  support_url: 'url',
  'plugins.iptv.database': 'url',
  'plugins.vsaas.database': 'url',
  'plugins.vsaas.endpoint': 'url',
  'plugins.rproxy.endpoint_auth': 'secret',
  'plugins.rproxy.streampoint_key': 'secret',
  ...under('streams.*', {
    password: 'secret',
    cluster_key: 'secret',
    // A source given as a plain string is a url too (the schema turns it into {url}).
    'urls[]': 'url',
    'urls[].url': 'url',
    'pushes[].url': 'url',
    on_publish: 'url',
    backup: 'url',
    'thumbnails.url': 'url',
    extra: 'options',
    ...auth,
    ...drm,
    ...stats,
  }),
  ...under('lives.*', {
    password: 'secret',
    'urls[]': 'url',
    'urls[].url': 'url',
    on_publish: 'url',
    'thumbnails.url': 'url',
    ...auth,
    ...drm,
    ...under('streams.*', stats),
  }),
  ...under('sources.*', {
    cluster_key: 'secret',
    'urls[]': 'url',
    // Each origin's state: its url as the name, and the error of its last poll.
    'stats.servers[].name': 'url',
    'stats.servers[].error': 'text',
    'thumbnails.url': 'url',
    ...auth,
    ...under('streams.*', stats),
  }),
  ...under('vods.*', { 'urls[].url': 'url', ...auth }),
  ...under('dvrs.*', { root: 'url', copy: 'url' }),
  ...under('auth_backends.*', {
    'allow.tokens[]': 'secret',
    'deny.tokens[]': 'secret',
    'backends[].url': 'url',
  }),
  ...under('web_scripts.*', { extra: 'options' }),
};

/**
 * Schema fields whose names look secret (see SECRET_NAME) but are not: each with its reason, so the
 * schema walk in secret-fields.test.ts can tell a new secret field from a known harmless one.
 */
export const NOT_SECRET: Readonly<Record<string, string>> = {
  'meta.drm_id': 'names a DRM resource, not a key',
  'streams.*.meta.drm_id': 'as above',
  'lives.*.meta.drm_id': 'as above',
  'sources.*.meta.drm_id': 'as above',
  'vods.*.meta.drm_id': 'as above',
  'streams.*.drm.resource_id': 'an identifier the keyserver is asked about',
  'lives.*.drm.resource_id': 'as above',
  'streams.*.drm.content_id': 'an identifier of the content',
  'lives.*.drm.content_id': 'as above',
  'streams.*.drm.account_id': 'a vendor account name',
  'lives.*.drm.account_id': 'as above',
  'streams.*.drm.user': 'a login; its password is hidden',
  'lives.*.drm.user': 'as above',
  'streams.*.drm.user_name': 'as above',
  'lives.*.drm.user_name': 'as above',
  'streams.*.urls[].user_agent': 'what the source is told the player is',
  'lives.*.urls[].user_agent': 'as above',
  'streams.*.url_prefix': 'a public path prefix of the output urls',
};

/** A key name that suggests a secret, in free options and url queries (`?token=`, `passphrase=`). */
export const SECRET_NAME = /pass|pwd|secret|token|key|auth|sig|credential|hash/i;

/** Schema field names worth a look (secret-fields.test.ts): secret names, and what holds urls. */
export const SUSPECT_NAME =
  /pass|pwd|secret|token|key|auth|sig|credential|hash|user|url|database|endpoint|^iv$|^id$|_id$/i;
