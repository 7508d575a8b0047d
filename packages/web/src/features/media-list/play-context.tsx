import { createContext, type ReactNode, use, useState } from 'react';
import { PlayModal } from './PlayModal.js';

/** Opens the play modal for a media name; the function never changes, so rows using it don't re-render. */
const PlayContext = createContext<(name: string) => void>(() => undefined);

/** Hosts the one play modal of the media list (spec 000 §2 "Play modal"). */
export function PlayProvider({ children }: { children: ReactNode }) {
  const [playing, setPlaying] = useState<string>();
  return (
    <PlayContext value={setPlaying}>
      {children}
      <PlayModal name={playing} onClose={() => setPlaying(undefined)} />
    </PlayContext>
  );
}

export const usePlay = (): ((name: string) => void) => use(PlayContext);
