/** Spec 001 §9: the log panel keeps at most 1000 entries. */
export const LOG_MAX_ENTRIES = 1000;
/** Spec 001 §9: auto-scroll while within 100 px of the bottom. */
export const LOG_STICK_PX = 100;

export function appendLines(lines: readonly string[], added: readonly string[]): string[] {
  const next = [...lines, ...added];
  return next.length > LOG_MAX_ENTRIES ? next.slice(next.length - LOG_MAX_ENTRIES) : next;
}

export const nearBottom = (box: { scrollHeight: number; scrollTop: number; clientHeight: number }) =>
  box.scrollHeight - box.scrollTop - box.clientHeight <= LOG_STICK_PX;
