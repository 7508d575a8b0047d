/**
 * A flag that turns on only once a condition has held for `delayMs` (spec 002 §9: the file list's
 * loading notice after 300 ms), so a quick load never flashes the notice.
 */
export function delayedFlag(delayMs: number, onChange: (on: boolean) => void) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let on = false;
  const set = (next: boolean) => {
    if (next === on) return;
    on = next;
    onChange(on);
  };
  return {
    /** The condition holds from now: the flag turns on after the delay unless stopped first. */
    start() {
      if (timer !== undefined || on) return;
      timer = setTimeout(() => {
        timer = undefined;
        set(true);
      }, delayMs);
    },
    /** The condition ended: the flag is off at once. */
    stop() {
      clearTimeout(timer);
      timer = undefined;
      set(false);
    },
  };
}
