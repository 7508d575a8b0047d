import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Config } from '@sluice/api';
import { ConfigRejected } from './errors.js';
import { type ChangeScope, ConfigStore, scopedDiff } from './store.js';

const START = `http 8080;
edit_auth admin secret;
stream cam0 {
  url udp://239.0.0.1:1234;
  title "Camera 0";
}
stream cam1 {
  url udp://239.0.0.2:1234;
}
`;

// An edit of existing streams' fields is written into the running config's streams map in place
// (config/in-place.ts): what an operator must never see is a refused or unwritten edit in it.
describe('modify_config edits existing items in place', () => {
  let dir: string;
  let store: ConfigStore;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sluice-in-place-'));
    await writeFile(join(dir, 'sluice.conf'), START);
    store = new ConfigStore(join(dir, 'sluice.conf'), join(dir, 'history'));
    await store.load();
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('the edit is in the config, the file and the listeners’ delta; the other items are untouched', async () => {
    const cam1 = store.config.streams!.cam1;
    let seen: unknown;
    store.onChange((next: Config, previous: Config, scope: ChangeScope | undefined) => {
      seen = scopedDiff(previous, next, scope);
    });
    await store.modify({ streams: { cam0: { title: 'Gate' } } });
    expect(store.config.streams!.cam0).toMatchObject({ name: 'cam0', title: 'Gate', position: 0 });
    expect(store.config.streams!.cam1).toBe(cam1);
    expect(seen).toEqual({ streams: { cam0: { title: 'Gate' } } });
    expect(await readFile(join(dir, 'sluice.conf'), 'utf8')).toContain('title Gate;');
  });

  it('a refused edit leaves the running config and the file as they were', async () => {
    const cam0 = store.config.streams!.cam0;
    const error: unknown = await store
      .modify({ streams: { cam0: { title: 'Gate', urls: 'not a list' } } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigRejected);
    expect(store.config.streams!.cam0).toBe(cam0);
    expect(await readFile(join(dir, 'sluice.conf'), 'utf8')).toBe(START);
  });

  it('an edit whose file cannot be written is not in the running config, before or after', async () => {
    const cam0 = store.config.streams!.cam0;
    // A file where the config's folder was: nothing can be written there (even as root).
    await rm(dir, { recursive: true, force: true });
    await writeFile(dir, 'not a folder');
    const pending = store.modify({ streams: { cam0: { title: 'Gate' } } });
    expect(store.config.streams!.cam0).toBe(cam0);
    await expect(pending).rejects.toThrow();
    expect(store.config.streams!.cam0).toBe(cam0);
  });

  it('while the write is under way, readers see the config as it was', async () => {
    const cam0 = store.config.streams!.cam0;
    const pending = store.modify({ streams: { cam0: { title: 'Gate' } } });
    expect(store.config.streams!.cam0).toBe(cam0);
    await pending;
    expect(store.config.streams!.cam0!.title).toBe('Gate');
  });
});
