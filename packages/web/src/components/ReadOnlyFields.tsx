import type { ReactNode } from 'react';
import { useCanEdit } from '../api/access.js';

const PLAIN = { border: 0, margin: 0, padding: 0, minWidth: 0 } as const;

/**
 * The fields of a form: for a view-only session a disabled <fieldset>, so every input, select,
 * switch and button in it is read-only at once, whichever component drew it (the browser disables
 * a disabled fieldset's controls, whatever their own props say). Tabs, links and players stay
 * outside it.
 */
export function ReadOnlyFields({ children }: { children: ReactNode }) {
  const canEdit = useCanEdit();
  if (canEdit) return children;
  return (
    <fieldset disabled style={PLAIN} data-view-only>
      {children}
    </fieldset>
  );
}
