/**
 * Header traffic figures (spec 000 §2 "Header status line", §9 unit factors): kilobits in, Mbps or
 * Gbps out. Both directions switch to Gbps together once either reaches 1 Gbps.
 */
const KBIT_PER_MBIT = 1024;
const KBIT_PER_GBIT = 1024 * 1024;

/** 3 decimals under 10, an integer from 10 up. */
export function formatRate(value: number): string {
  return value < 10 ? value.toFixed(3) : String(Math.round(value));
}

export function formatTraffic(inputKbit: number, outputKbit: number): { input: string; output: string } {
  const gbps = inputKbit >= KBIT_PER_GBIT || outputKbit >= KBIT_PER_GBIT;
  const divisor = gbps ? KBIT_PER_GBIT : KBIT_PER_MBIT;
  const unit = gbps ? 'Gbps' : 'Mbps';
  return {
    input: `${formatRate(inputKbit / divisor)} ${unit}`,
    output: `${formatRate(outputKbit / divisor)} ${unit}`,
  };
}
