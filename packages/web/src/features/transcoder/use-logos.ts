import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect } from 'react';
import type { SaveStatus } from '../../api/save-progress.js';
import { deleteLogo, fetchLogos, uploadLogo } from './logo-calls.js';

const logosKey = ['logos'] as const;

/** Spec 001 §8: logo load, upload and delete errors are only logged. */
const logFailure = (what: string) => (error: unknown) => console.error(`Logo ${what} failed:`, error);

/** The uploaded logos, with upload and delete that refresh the list. */
export function useLogos() {
  const client = useQueryClient();
  const query = useQuery({ queryKey: logosKey, queryFn: fetchLogos, retry: false });
  useEffect(() => {
    if (query.error) logFailure('load')(query.error);
  }, [query.error]);
  const refresh = useCallback(() => client.invalidateQueries({ queryKey: logosKey }), [client]);
  const upload = useCallback(
    (name: string, file: Blob) => uploadLogo(name, file).then(refresh, logFailure('upload')),
    [refresh],
  );
  /** Resolves true once the logo is gone. */
  const remove = useCallback(
    (name: string): Promise<boolean> =>
      deleteLogo(name).then(
        () => refresh().then(() => true),
        (error: unknown) => {
          logFailure('delete')(error);
          return false;
        },
      ),
    [refresh],
  );
  return { logos: query.data ?? {}, upload, remove };
}

/**
 * Which streams use a logo changes when a transcoder is saved: after this tab's save the list is
 * read again, so Delete is offered only for logos no stream uses now.
 */
export function useLogosAfterSave(status: SaveStatus): void {
  const client = useQueryClient();
  useEffect(() => {
    if (status.phase === 'saved') void client.invalidateQueries({ queryKey: logosKey });
  }, [client, status]);
}
