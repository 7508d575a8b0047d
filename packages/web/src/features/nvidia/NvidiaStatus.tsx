import { List, Text } from '@mantine/core';
import type { NvidiaGpu } from '@sluice/api';
import { useServerStats } from '../../api/use-live.js';

const describe = (gpu: NvidiaGpu): string =>
  [
    `GPU ${gpu.index} ${gpu.name}`,
    gpu.utilization_percent !== undefined && `${gpu.utilization_percent} % busy`,
    gpu.memory_used_mb !== undefined &&
      gpu.memory_total_mb !== undefined &&
      `${gpu.memory_used_mb} of ${gpu.memory_total_mb} MB`,
    gpu.temperature_c !== undefined && `${gpu.temperature_c} °C`,
    gpu.encoder_sessions !== undefined && `${gpu.encoder_sessions} NVENC encodes`,
  ]
    .filter(Boolean)
    .join(', ');

/**
 * What nvidia_monitor reads (server stats `nvidia`, nvidia-smi every 5 s): each card, or
 * 'no NVIDIA GPU'. Nothing while the switch is off (the server reads nothing then).
 */
export function NvidiaStatus() {
  const nvidia = useServerStats()?.nvidia;
  if (!nvidia) return null;
  if (nvidia.error || nvidia.gpus.length === 0)
    return (
      <Text size="sm" c="dimmed" aria-label="NVIDIA GPUs">
        {nvidia.error ?? 'no NVIDIA GPU'}
      </Text>
    );
  return (
    <List size="sm" aria-label="NVIDIA GPUs">
      {nvidia.gpus.map((gpu) => (
        <List.Item key={gpu.index}>{describe(gpu)}</List.Item>
      ))}
    </List>
  );
}
