const pad = (n: number) => String(n).padStart(2, '0');

/** Lifetime and uptime as "days hh:mm:ss" (spec 000 §9); the days part only once there is one. */
export function formatLifetime(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds));
  const days = Math.floor(s / 86400);
  const clock = `${pad(Math.floor((s % 86400) / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
  return days > 0 ? `${days}d ${clock}` : clock;
}
