import { z } from 'zod';

/**
 * Spec 000 §6 keeps the login in local storage under a product-specific key. Only the login name is
 * kept, as the mark that this browser logged in: the password never stays in the browser (issue
 * 13); the HttpOnly session cookie set by POST /admin/login authorises every call.
 */
export const LOGIN_KEY = 'sluice.login';
/** Where older consoles kept login and password: removed on sight. */
export const LEGACY_CREDENTIALS_KEY = 'sluice.credentials';

const loginSchema = z.object({ login: z.string() });
export type StoredLogin = z.infer<typeof loginSchema>;

export interface Credentials {
  login: string;
  password: string;
}

/** The stored login; a corrupted entry is logged and ignored (spec 000 §6). */
export function loadLogin(storage: Storage = localStorage): StoredLogin | undefined {
  const raw = storage.getItem(LOGIN_KEY);
  if (raw === null) return undefined;
  try {
    const parsed = loginSchema.safeParse(JSON.parse(raw));
    if (parsed.success) return { login: parsed.data.login };
  } catch {
    // Not JSON: reported below like any other corruption.
  }
  console.warn(`The stored login under "${LOGIN_KEY}" is corrupted and was ignored.`);
  return undefined;
}

export function saveLogin(login: string, storage: Storage = localStorage): void {
  storage.setItem(LOGIN_KEY, JSON.stringify({ login }));
}

export function clearLogin(storage: Storage = localStorage): void {
  storage.removeItem(LOGIN_KEY);
}

/** Removes a password an older console stored (local or session storage): it must not stay there. */
export function forgetStoredPasswords(storages: readonly Storage[] = [localStorage, sessionStorage]): void {
  for (const storage of storages) storage.removeItem(LEGACY_CREDENTIALS_KEY);
}
