import type { ReactNode } from 'react';
import { useLoaded } from '../api/use-live.js';
import { LoadingApp } from './LoadingApp.js';

/** Pages render once the first whole config has arrived on the events socket. */
export function ConsoleReady({ children }: { children: ReactNode }) {
  return useLoaded() ? children : <LoadingApp />;
}
