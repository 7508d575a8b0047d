import { describe, expect, it, vi } from 'vitest';
import {
  LEGACY_CREDENTIALS_KEY,
  LOGIN_KEY,
  clearLogin,
  forgetStoredPasswords,
  loadLogin,
  saveLogin,
} from './credentials.js';

class MemoryStorage implements Storage {
  private items = new Map<string, string>();
  get length() {
    return this.items.size;
  }
  clear() {
    this.items.clear();
  }
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  key(index: number) {
    return [...this.items.keys()][index] ?? null;
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
  setItem(key: string, value: string) {
    this.items.set(key, value);
  }
}

describe('stored login', () => {
  it('keeps the login name only, never a password', () => {
    const storage = new MemoryStorage();
    saveLogin('admin', storage);
    expect(storage.getItem(LOGIN_KEY)).toBe('{"login":"admin"}');
    expect(loadLogin(storage)).toEqual({ login: 'admin' });
    clearLogin(storage);
    expect(loadLogin(storage)).toBeUndefined();
  });

  it('drops a password an older console stored, from local and session storage', () => {
    const local = new MemoryStorage();
    const session = new MemoryStorage();
    for (const s of [local, session]) s.setItem(LEGACY_CREDENTIALS_KEY, '{"login":"admin","password":"pw"}');
    forgetStoredPasswords([local, session]);
    expect(local.length + session.length).toBe(0);
  });

  it('logs and ignores a corrupted entry', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const storage = new MemoryStorage();
    storage.setItem(LOGIN_KEY, '{not json');
    expect(loadLogin(storage)).toBeUndefined();
    storage.setItem(LOGIN_KEY, '{"login": 1}');
    expect(loadLogin(storage)).toBeUndefined();
    expect(warn).toHaveBeenCalledTimes(2);
    warn.mockRestore();
  });
});
