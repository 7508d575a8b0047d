/** Spec 000 §9 unit factors: a megabit is 1024 kilobits. */
const KBIT_PER_MBIT = 1024;

/** A measured bitrate (kbit/s) as the lists show it: "850 kbit/s", "2.4 Mbit/s"; nothing when unknown. */
export function formatBitrate(kbitPerSecond: number | undefined): string {
  if (kbitPerSecond === undefined) return '';
  if (kbitPerSecond < KBIT_PER_MBIT) return `${Math.round(kbitPerSecond)} kbit/s`;
  return `${(kbitPerSecond / KBIT_PER_MBIT).toFixed(1)} Mbit/s`;
}
