/** Spec 000 §9: save progress tick 1000 ms; timeout warning at 10000 ms; "Saved." banner 3000 ms. */
export const SAVE_TICK_MS = 1000;
export const SAVE_SLOW_MS = 10_000;
export const SAVED_BANNER_MS = 3000;

export const SAVING_TEXT = 'Saving config...';
export const SLOW_TEXT = 'Server response takes too long.';
export const SAVED_TEXT = 'Saved.';

export type SaveStatus =
  | { phase: 'idle' }
  | { phase: 'saving'; startedAt: number }
  | { phase: 'saved' }
  | { phase: 'failed'; message: string };

/** What the progress indicator shows `elapsedMs` into a save (spec 000 §4 "Editing"). */
export function savingView(elapsedMs: number): { text: string; percent: number } {
  const ticks = Math.floor(elapsedMs / SAVE_TICK_MS);
  const percent = Math.min(100, ((ticks + 1) * SAVE_TICK_MS * 100) / SAVE_SLOW_MS);
  return { text: elapsedMs >= SAVE_SLOW_MS ? SLOW_TEXT : SAVING_TEXT, percent };
}
