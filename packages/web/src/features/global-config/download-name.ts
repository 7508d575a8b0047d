const pad = (n: number) => String(n).padStart(2, '0');

/** Spec 000 §4: Download config saves host-timestamp.json (local time, YYYYMMDD-HHMMSS). */
export function downloadName(host: string, at: Date): string {
  const date = `${at.getFullYear()}${pad(at.getMonth() + 1)}${pad(at.getDate())}`;
  const time = `${pad(at.getHours())}${pad(at.getMinutes())}${pad(at.getSeconds())}`;
  return `${host || 'sluice'}-${date}-${time}.json`;
}
