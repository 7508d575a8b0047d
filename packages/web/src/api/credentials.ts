import { z } from 'zod';

/** Spec 000 §6: credentials kept in local storage under a product-specific key. */
export const CREDENTIALS_KEY = 'sluice.credentials';

const credentialsSchema = z.object({ login: z.string(), password: z.string() });
export type Credentials = z.infer<typeof credentialsSchema>;

/** The stored credentials; a corrupted entry is logged and ignored (spec 000 §6). */
export function loadCredentials(storage: Storage = localStorage): Credentials | undefined {
  const raw = storage.getItem(CREDENTIALS_KEY);
  if (raw === null) return undefined;
  try {
    const parsed = credentialsSchema.safeParse(JSON.parse(raw));
    if (parsed.success) return parsed.data;
  } catch {
    // Not JSON: reported below like any other corruption.
  }
  console.warn(`Stored credentials under "${CREDENTIALS_KEY}" are corrupted and were ignored.`);
  return undefined;
}

export function saveCredentials(credentials: Credentials, storage: Storage = localStorage): void {
  storage.setItem(CREDENTIALS_KEY, JSON.stringify(credentials));
}

export function clearCredentials(storage: Storage = localStorage): void {
  storage.removeItem(CREDENTIALS_KEY);
}

/** base64(login:password) of the UTF-8 bytes, as HTTP Basic and the websocket's `auth` want it. */
export function encodeCredentials({ login, password }: Credentials): string {
  const bytes = new TextEncoder().encode(`${login}:${password}`);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}
