/** Spec 002 §4, §9: the next page loads once the view is this close to the page's bottom… */
export const PAGING_TRIGGER_PX = 300;
/** …at most once a second. */
export const PAGING_INTERVAL_MS = 1000;
/** Spec 002 §9: field edits autosave, and the users filter applies, after 1 s without typing. */
export const IPTV_DEBOUNCE_MS = 1000;

export interface PagingState {
  /** Distance from the view's bottom edge to the page's bottom. */
  remainingPx: number;
  /** When the last page was asked for; undefined before the first. */
  lastLoadAtMs: number | undefined;
  nowMs: number;
  /** False once a page came back short: the list is complete. */
  hasMore: boolean;
  loading: boolean;
}

/**
 * Whether to load the next page now: 'now', 'later' (near the bottom, but a page was asked for
 * less than a second ago: check again when the second is over), or 'no'.
 */
export function nextPageDecision(state: PagingState): 'now' | 'later' | 'no' {
  if (!state.hasMore || state.loading || state.remainingPx > PAGING_TRIGGER_PX) return 'no';
  if (state.lastLoadAtMs !== undefined && state.nowMs - state.lastLoadAtMs < PAGING_INTERVAL_MS)
    return 'later';
  return 'now';
}

/** The view's distance to the bottom of the page (window scrolling, as the console's shell does). */
export const remainingBelowPx = (): number =>
  document.documentElement.scrollHeight - (window.scrollY + window.innerHeight);
