import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { probeTranscoderDevices } from './devices.js';

describe('probeTranscoderDevices', () => {
  const dirs: string[] = [];
  afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

  it('lists NVIDIA GPUs, Intel render nodes and V4L2 encoders; skips other vendors and plain cameras', async () => {
    const root = await mkdtemp(join(tmpdir(), 'sluice-devices-'));
    dirs.push(root);
    const dev = join(root, 'dev');
    const sys = join(root, 'sys');
    await mkdir(join(dev, 'dri'), { recursive: true });
    for (const f of [
      'nvidia0',
      'nvidia1',
      'nvidiactl',
      'nvidia-uvm',
      'dri/renderD128',
      'dri/renderD129',
      'dri/card0',
    ])
      await writeFile(join(dev, f), '');
    for (const [node, vendor] of [
      ['renderD128', '0x8086'],
      ['renderD129', '0x1002'],
    ]) {
      await mkdir(join(sys, 'class/drm', node!, 'device'), { recursive: true });
      await writeFile(join(sys, 'class/drm', node!, 'device/vendor'), `${vendor}\n`);
    }
    for (const [video, name] of [
      ['video0', 'USB Camera'],
      ['video11', 'bcm2835-codec-encode'],
    ]) {
      await mkdir(join(sys, 'class/video4linux', video!), { recursive: true });
      await writeFile(join(sys, 'class/video4linux', video!, 'name'), `${name}\n`);
    }
    expect(await probeTranscoderDevices({ dev, sys })).toEqual([
      { id: 11, type: 'coder' },
      { id: 0, type: 'nvenc' },
      { id: 1, type: 'nvenc' },
      { id: 0, type: 'qsv' },
    ]);
  });

  it('finds nothing on a machine without devices', async () => {
    const root = await mkdtemp(join(tmpdir(), 'sluice-devices-'));
    dirs.push(root);
    expect(await probeTranscoderDevices({ dev: join(root, 'dev'), sys: join(root, 'sys') })).toEqual([]);
  });
});
