import type { AuthBackend } from '@sluice/api';
import { useCallback, useMemo } from 'react';
import { useEdit, useGlobal } from '../../api/use-live.js';
import { newBackendName, nextPosition, orderedNames, renamedTo } from './backend-rules.js';

const NO_BACKENDS: Record<string, AuthBackend> = {};

/** The auth_backends section with unsaved edits laid over, and the edits the page makes to it. */
export function useAuthBackends() {
  const backends = useGlobal('auth_backends') ?? NO_BACKENDS;
  const edit = useEdit();
  const names = useMemo(() => orderedNames(backends), [backends]);

  const put = useCallback(
    (name: string, backend: AuthBackend | null) => edit(['auth_backends', name], backend),
    [edit],
  );

  /** The backend named `name`, or a new one at the end of the list, not yet put in the edits. */
  const existingOrNew = useCallback(
    (name: string): AuthBackend => backends[name] ?? { name, position: nextPosition(backends) },
    [backends],
  );

  const add = useCallback(() => {
    const name = newBackendName(names);
    put(name, existingOrNew(name));
  }, [existingOrNew, names, put]);

  /** Moves the backend to its new name: the old key deleted, the whole backend under the new one. */
  const rename = useCallback(
    (old: string, typed: string) => {
      const name = renamedTo(old, typed, names);
      const backend = backends[old];
      if (name === undefined || !backend) return;
      put(old, null);
      put(name, { ...backend, name });
    },
    [backends, names, put],
  );

  return { backends, names, put, existingOrNew, add, rename };
}
