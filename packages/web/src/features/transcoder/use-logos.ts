import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect } from 'react';
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
  const remove = useCallback(
    (name: string) => deleteLogo(name).then(refresh, logFailure('delete')),
    [refresh],
  );
  return { logos: query.data ?? {}, upload, remove };
}
