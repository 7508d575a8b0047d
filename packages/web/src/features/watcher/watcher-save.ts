/** Spec 002 §9: the random streampoint_key is 14 characters. */
export const STREAMPOINT_KEY_CHARS = 14;
/** Spec 002 §8, word for word. */
export const WATCHER_UNAVAILABLE = 'Flussonic Watcher is disabled on this license';

const KEY_ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** 14 letters and digits from the browser's CSPRNG (the key authenticates streampoints). */
export function randomStreampointKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(STREAMPOINT_KEY_CHARS * 2));
  let key = '';
  // Rejection sampling: 62 doesn't divide 256, so bytes past 248 are skipped to keep it uniform.
  for (const byte of bytes) {
    if (byte >= 248) continue;
    key += KEY_ALPHABET[byte % KEY_ALPHABET.length];
    if (key.length === STREAMPOINT_KEY_CHARS) return key;
  }
  return key + randomStreampointKey().slice(0, STREAMPOINT_KEY_CHARS - key.length);
}

export interface WatcherPlugins {
  vsaas?: { database?: string; endpoint?: string } | null;
  rproxy?: { endpoint_auth?: string; streampoint_key?: string } | null;
}

/**
 * The config delta of the Watcher page's Save (spec 002 §4): a database set where vsaas was not
 * configured also sets endpoint 'enabled'; no rproxy plugin yet gets endpoint_auth vsaas and a
 * random 14-character streampoint_key; an emptied database removes the vsaas plugin (null deletes).
 */
export function watcherDelta(
  database: string,
  current: WatcherPlugins,
  newKey: () => string = randomStreampointKey,
): { plugins: Record<string, unknown> } {
  const path = database.trim();
  if (path === '') return { plugins: { vsaas: null } };
  const vsaas: Record<string, string> = { database: path };
  if (!current.vsaas) vsaas.endpoint = 'enabled';
  const plugins: Record<string, unknown> = { vsaas };
  if (!current.rproxy) plugins.rproxy = { endpoint_auth: 'vsaas', streampoint_key: newKey() };
  return { plugins };
}
