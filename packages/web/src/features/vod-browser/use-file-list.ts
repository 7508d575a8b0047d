import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { LIST_LOADING_NOTICE_MS } from './browser-constants.js';
import { listFiles, type SourcePath } from './file-calls.js';
import { useDelayedFlag } from './use-delayed-flag.js';

const filesKey = (source: SourcePath, subpath: string) => [
  'vod-files',
  source.prefix,
  source.number,
  subpath,
];

/**
 * One directory's listing. `notice`: the first load of this directory has taken over 300 ms (spec
 * 002 §2); a refresh of a list already shown keeps showing it and raises no notice.
 */
export function useFileList(source: SourcePath, subpath: string) {
  const client = useQueryClient();
  const key = filesKey(source, subpath);
  const query = useQuery({
    queryKey: key,
    queryFn: () => listFiles(source, subpath),
    retry: false,
    staleTime: 0,
  });
  const notice = useDelayedFlag(query.isPending, LIST_LOADING_NOTICE_MS);
  const { prefix, number } = source;
  const refresh = useCallback(
    () => client.invalidateQueries({ queryKey: filesKey({ prefix, number }, subpath) }),
    [client, prefix, number, subpath],
  );
  return { files: query.data, error: query.error, pending: query.isPending, notice, refresh };
}
