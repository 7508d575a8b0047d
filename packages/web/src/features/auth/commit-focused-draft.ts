/**
 * Commits what is still being typed in the focused input (its blur commits the draft) before a
 * choice replaces the fields that input edits. Without it, a choice made without moving focus (a
 * keyboard or scripted select) lets the old field commit its draft as it goes away, after the
 * choice cleared it.
 */
export function commitFocusedDraft(): void {
  const active = document.activeElement;
  if (active instanceof HTMLInputElement || active instanceof HTMLTextAreaElement) active.blur();
}
