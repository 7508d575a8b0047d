import type { ReactNode } from 'react';
import { useCanEdit } from '../api/access.js';

/** Shows its children only to sessions that may change things: Save, Delete, Upload, Restart, add forms. */
export function EditOnly({ children }: { children: ReactNode }) {
  return useCanEdit() ? children : null;
}
