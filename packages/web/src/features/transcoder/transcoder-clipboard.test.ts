import { describe, expect, it } from 'vitest';
import { copySettings, readCopiedSettings, type SettingsStorage } from './transcoder-clipboard.js';
import { enabledDefaults } from './transcoder-model.js';

describe('copy and paste', () => {
  const memoryStorage = (): SettingsStorage & { items: Map<string, string> } => {
    const items = new Map<string, string>();
    return {
      items,
      getItem: (key) => items.get(key) ?? null,
      setItem: (key, value) => void items.set(key, value),
    };
  };

  it("copied settings are kept under 'transcoder' and read back whole", () => {
    const storage = memoryStorage();
    expect(readCopiedSettings(storage)).toBeUndefined();
    copySettings(storage, enabledDefaults());
    expect([...storage.items.keys()]).toEqual(['transcoder']);
    expect(readCopiedSettings(storage)).toEqual(enabledDefaults());
  });

  it('text that is not a transcoder config is ignored', () => {
    const storage = memoryStorage();
    storage.setItem('transcoder', '{not json');
    expect(readCopiedSettings(storage)).toBeUndefined();
    storage.setItem('transcoder', JSON.stringify({ video: { x: { bitrate: -3 } } }));
    expect(readCopiedSettings(storage)).toBeUndefined();
  });
});
