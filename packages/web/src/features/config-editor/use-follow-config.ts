import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import type { LiveState } from '../../api/live-state.js';
import { useLive } from '../../api/use-live.js';
import { type RawConfig, rawConfigKey, readRawConfigWithRevision } from './use-raw-config.js';

const selectRevision = (state: LiveState) => state.server.config_revision;

/** A revision as the socket names it, from an ETag (`"abc"`, `W/"abc"`). */
const bare = (etag: string | undefined) => etag?.replace(/^W\//, '').replace(/^"(.*)"$/, '$1');

/**
 * Issue 17: the config editor follows changes saved elsewhere (another tab, a script). Live sync
 * names the config's revision; when it is not the one the text was loaded at, an unedited text is
 * read again at once, and an edited one is flagged "changed elsewhere" (as is a save refused 409)
 * with Reload (take theirs, drop mine) and Compare (mine beside theirs, the base kept).
 */
export function useFollowConfig({
  initialText,
  revision,
  edited,
  take,
}: {
  initialText: string;
  revision: string | undefined;
  edited: boolean;
  /** Replaces the editor's text with `text`, as not edited. */
  take: (text: string) => void;
}) {
  const queryClient = useQueryClient();
  const live = useLive(selectRevision);
  const [refused, setRefused] = useState(false);
  const [theirs, setTheirs] = useState<string | undefined>(undefined);
  const behind = live !== undefined && revision !== undefined && bare(revision) !== live;

  useEffect(() => {
    if (behind && !edited) void queryClient.refetchQueries({ queryKey: rawConfigKey });
  }, [behind, edited, live, queryClient]);

  // A text read again (or just saved) shows at once when nothing is edited.
  useEffect(() => {
    if (!edited) take(initialText);
    // Only a new loaded text counts: `edited` turning false must not undo what was typed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [initialText]);

  const reload = useCallback(async () => {
    const fresh = await readRawConfigWithRevision();
    queryClient.setQueryData<RawConfig>(rawConfigKey, fresh);
    take(fresh.text);
    setRefused(false);
    setTheirs(undefined);
  }, [queryClient, take]);

  const compare = useCallback(async () => {
    setTheirs((await readRawConfigWithRevision()).text);
  }, []);

  return {
    changedElsewhere: edited && (behind || refused),
    theirs,
    reload,
    compare,
    /** A save was refused 409: the text is based on an old revision. */
    markRefused: useCallback(() => setRefused(true), []),
  };
}
