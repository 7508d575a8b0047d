import { describe, expect, it, vi } from 'vitest';
import { CREDENTIALS_KEY, encodeCredentials, loadCredentials, saveCredentials } from './credentials.js';

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

describe('stored credentials', () => {
  it('round-trips through storage', () => {
    const storage = new MemoryStorage();
    saveCredentials({ login: 'admin', password: 'pw' }, storage);
    expect(loadCredentials(storage)).toEqual({ login: 'admin', password: 'pw' });
  });

  it('logs and ignores a corrupted entry', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const storage = new MemoryStorage();
    storage.setItem(CREDENTIALS_KEY, '{not json');
    expect(loadCredentials(storage)).toBeUndefined();
    storage.setItem(CREDENTIALS_KEY, '{"login": 1}');
    expect(loadCredentials(storage)).toBeUndefined();
    expect(warn).toHaveBeenCalledTimes(2);
    warn.mockRestore();
  });

  it('encodes UTF-8 for HTTP Basic', () => {
    expect(encodeCredentials({ login: 'admin', password: 'pw' })).toBe(btoa('admin:pw'));
    expect(atob(encodeCredentials({ login: 'é', password: 'x' }))).toBe('\u00c3\u00a9:x');
  });
});
