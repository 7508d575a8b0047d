import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigRejected } from './errors.js';
import { ConfigStore } from './store.js';

const START = `http 8080;
edit_auth admin secret;
stream cam {
  url udp://239.0.0.1:1234;
  dvr /storage/cam 1h;
}
dvr main {
  root /archive;
}
`;

describe('modify_config refuses a DVR root that is already used (spec 002 §5)', () => {
  let dir: string;
  let store: ConfigStore;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sluice-dvr-roots-'));
    await writeFile(join(dir, 'sluice.conf'), START);
    store = new ConfigStore(join(dir, 'sluice.conf'), join(dir, 'history'));
    await store.load();
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  /** The change is refused with `message`, and neither the file nor the running config changed. */
  async function expectRefused(delta: unknown, message: RegExp): Promise<void> {
    const before = store.config;
    const error: unknown = await store.modify(delta).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigRejected);
    expect((error as Error).message).toMatch(message);
    expect(store.config).toBe(before);
    expect(await readFile(join(dir, 'sluice.conf'), 'utf8')).toBe(START);
  }

  it('another global DVR with the same root', async () => {
    await expectRefused(
      { dvrs: { spare: { root: '/archive' } } },
      /dvrs\.(spare|main)\.root: DVR root should be unique, this root is already used as global\./,
    );
  });

  it("a stream's dvr root, with or without the leading slash", async () => {
    const stream = /root: DVR root should be unique, this root is already used as stream root path\./;
    await expectRefused({ dvrs: { spare: { root: '/storage/cam' } } }, stream);
    await expectRefused({ dvrs: { spare: { root: 'storage/cam' } } }, stream);
    await expectRefused({ dvrs: { main: { root: 'storage/cam' } } }, stream);
  });

  it('takes a root of its own, and a rename that keeps the root', async () => {
    await store.modify({ dvrs: { spare: { root: '/archive2', raid: 0, disks: { sda: { mode: 'keep' } } } } });
    expect(store.config.dvrs?.spare).toMatchObject({ root: '/archive2', raid: 0 });
    await store.modify({ dvrs: { main: null, primary: { root: '/archive' } } });
    expect(Object.keys(store.config.dvrs ?? {}).sort()).toEqual(['primary', 'spare']);
    expect(await readFile(join(dir, 'sluice.conf'), 'utf8')).toContain('dvr primary {');
  });

  it('leaves edits that do not touch dvrs alone', async () => {
    await store.modify({ streams: { other: { urls: [{ url: 'udp://239.0.0.2:1234' }] } } });
    expect(store.config.streams?.other).toBeDefined();
  });
});
