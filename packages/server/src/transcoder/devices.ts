import { readdir, readFile } from 'node:fs/promises';
import type { ServerInfo } from '@sluice/api';

export type TranscoderDevice = ServerInfo['transcoder_devices'][number];

/** Where the probe looks; tests point it at a fake tree. */
export interface DeviceRoots {
  dev: string;
  sys: string;
}

/** PCI vendor id of Intel: a render node of another vendor is no Quick Sync device. */
const INTEL_VENDOR = '0x8086';

/**
 * The transcoder devices really present on this machine (server info `transcoder_devices`, which
 * the console's Hardware and Device ID selectors follow):
 * - nvenc: NVIDIA GPUs, /dev/nvidiaN (N is the id nvenc's -gpu takes);
 * - qsv: Intel render nodes, /dev/dri/renderD(128+N) whose PCI vendor is Intel;
 * - coder: V4L2 memory-to-memory encoders, /sys/class/video4linux/videoN named as an encoder.
 * Nothing found is an empty list: only cpu is then offered.
 */
export async function probeTranscoderDevices(
  roots: DeviceRoots = { dev: '/dev', sys: '/sys' },
): Promise<TranscoderDevice[]> {
  const found: TranscoderDevice[] = [];
  const list = (dir: string) => readdir(dir).catch(() => [] as string[]);
  for (const entry of await list(roots.dev)) {
    const gpu = /^nvidia(\d+)$/.exec(entry);
    if (gpu) found.push({ id: Number(gpu[1]), type: 'nvenc' });
  }
  for (const entry of await list(`${roots.dev}/dri`)) {
    const node = /^renderD(\d+)$/.exec(entry);
    if (!node) continue;
    const vendor = await readFile(`${roots.sys}/class/drm/${entry}/device/vendor`, 'utf8').catch(() => '');
    if (vendor.trim() === INTEL_VENDOR) found.push({ id: Number(node[1]) - 128, type: 'qsv' });
  }
  for (const entry of await list(`${roots.sys}/class/video4linux`)) {
    const video = /^video(\d+)$/.exec(entry);
    if (!video) continue;
    const name = await readFile(`${roots.sys}/class/video4linux/${entry}/name`, 'utf8').catch(() => '');
    if (/enc/i.test(name)) found.push({ id: Number(video[1]), type: 'coder' });
  }
  return found.sort((a, b) => a.type.localeCompare(b.type) || a.id - b.id);
}
