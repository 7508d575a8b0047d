import { useCallback, useEffect, useRef, useState } from 'react';
import { fetchUsers, type IptvUser, USERS_PAGE_SIZE } from './iptv-api.js';
import { nextPageDecision, PAGING_INTERVAL_MS, remainingBelowPx } from './iptv-paging.js';

const sameId = (a: IptvUser, b: IptvUser) => String(a.id) === String(b.id);

/** `more` after `list`, leaving out users already listed (a user added here shifts the server's pages). */
const appendNew = (list: IptvUser[], more: IptvUser[]) => [
  ...list,
  ...more.filter((user) => !list.some((seen) => sameId(seen, user))),
];

interface UsersState {
  users: IptvUser[];
  /** Users of the server's list read so far, less those removed here: where the next page starts. */
  fetched: number;
  hasMore: boolean;
  loading: boolean;
  error?: unknown;
}
const START: UsersState = { users: [], fetched: 0, hasMore: true, loading: true };

/**
 * The users table's rows (spec 002 §4, §7): the first 30 users matching `q`, and 30 more each time
 * the view comes within 300 px of the page's bottom, at most once a second, until a page comes back
 * short. A new `q` starts again from the first page.
 */
export function useIptvUsers(q: string, enabled: boolean) {
  const [state, setState] = useState<UsersState>(START);
  const current = useRef(state);
  current.current = state;
  const lastLoadAt = useRef<number | undefined>(undefined);
  const generation = useRef(0);

  const loadPage = useCallback(
    async (reset: boolean) => {
      const gen = reset ? ++generation.current : generation.current;
      const from = reset ? 0 : current.current.fetched;
      lastLoadAt.current = Date.now();
      setState((s) => (reset ? START : { ...s, loading: true }));
      try {
        const page = await fetchUsers(from, q);
        if (gen !== generation.current) return;
        setState((s) => ({
          users: appendNew(reset ? [] : s.users, page),
          fetched: from + page.length,
          hasMore: page.length >= USERS_PAGE_SIZE,
          loading: false,
        }));
      } catch (error) {
        if (gen !== generation.current) return;
        setState((s) => ({ ...s, loading: false, hasMore: false, error }));
      }
    },
    [q],
  );

  useEffect(() => {
    if (enabled) void loadPage(true);
  }, [enabled, loadPage]);

  // The paging trigger: on scroll, on resize and when a page has come in; near the bottom within a
  // second of the last page, checked again once the second is over, so a quick scroll to the end
  // is not left waiting.
  const check = useRef<() => void>(() => undefined);
  useEffect(() => {
    if (!enabled) return;
    let later: ReturnType<typeof setTimeout> | undefined;
    check.current = () => {
      const decision = nextPageDecision({
        remainingPx: remainingBelowPx(),
        lastLoadAtMs: lastLoadAt.current,
        nowMs: Date.now(),
        hasMore: current.current.hasMore,
        loading: current.current.loading,
      });
      if (decision === 'now') void loadPage(false);
      if (decision === 'later' && later === undefined)
        later = setTimeout(
          () => {
            later = undefined;
            check.current();
          },
          PAGING_INTERVAL_MS - (Date.now() - (lastLoadAt.current ?? 0)),
        );
    };
    const onView = () => check.current();
    window.addEventListener('scroll', onView, { passive: true });
    window.addEventListener('resize', onView);
    return () => {
      window.removeEventListener('scroll', onView);
      window.removeEventListener('resize', onView);
      clearTimeout(later);
      check.current = () => undefined;
    };
  }, [enabled, loadPage]);
  useEffect(() => {
    if (!state.loading) check.current();
  }, [state.loading, state.fetched]);

  /** A user made here goes first in the table; it is not counted in the server's pages read. */
  const addedIds = useRef(new Set<string>());
  const added = useCallback((user: IptvUser) => {
    addedIds.current.add(String(user.id));
    setState((s) => ({ ...s, users: [user, ...s.users.filter((u) => !sameId(u, user))] }));
  }, []);

  /** A user removed here: out of the table, and the server's list is one shorter before the next page. */
  const removed = useCallback((user: IptvUser) => {
    setState((s) => ({
      ...s,
      users: s.users.filter((u) => !sameId(u, user)),
      fetched: addedIds.current.has(String(user.id)) ? s.fetched : Math.max(0, s.fetched - 1),
    }));
  }, []);

  /** A user saved here, as the server answered it. */
  const updated = useCallback((user: IptvUser) => {
    setState((s) => ({ ...s, users: s.users.map((u) => (sameId(u, user) ? user : u)) }));
  }, []);

  const reload = useCallback(() => void loadPage(true), [loadPage]);

  return { ...state, added, removed, updated, reload };
}
