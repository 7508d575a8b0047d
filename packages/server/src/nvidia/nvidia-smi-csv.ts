import type { NvidiaGpu } from '@sluice/api';

/**
 * What `nvidia-smi` is asked, in this order (`--query-gpu=…`; every field exists since the 400
 * drivers). Encoder sessions are the NVENC encodes running now: the transcoder's work on the card.
 */
export const NVIDIA_SMI_ARGS = [
  '--query-gpu=index,name,utilization.gpu,memory.used,memory.total,temperature.gpu,encoder.stats.sessionCount',
  '--format=csv,noheader,nounits',
];

/** A field nvidia-smi can't read on this card says so in brackets ("[N/A]", "[Not Supported]"). */
const figure = (text: string | undefined): number | undefined => {
  const n = Number(text);
  return text === undefined || text === '' || /^\[/.test(text) || !Number.isFinite(n) ? undefined : n;
};

/**
 * One GPU per line of `nvidia-smi --query-gpu … --format=csv,noheader,nounits`, as
 * "0, Tesla T4, 35, 1234, 15360, 52, 3". Lines that don't start with a GPU index are skipped (a
 * driver warning printed on stdout). A name has no comma in it (nvidia-smi's product names).
 */
export function parseNvidiaSmiCsv(text: string): NvidiaGpu[] {
  const gpus: NvidiaGpu[] = [];
  for (const line of text.split('\n')) {
    const cells = line.split(',').map((c) => c.trim());
    if (cells.length < 7 || !/^\d+$/.test(cells[0]!)) continue;
    const [index, name, utilization, memoryUsed, memoryTotal, temperature, sessions] = cells;
    gpus.push({
      index: Number(index),
      name: name!,
      utilization_percent: figure(utilization),
      memory_used_mb: figure(memoryUsed),
      memory_total_mb: figure(memoryTotal),
      temperature_c: figure(temperature),
      encoder_sessions: figure(sessions),
    });
  }
  return gpus;
}
