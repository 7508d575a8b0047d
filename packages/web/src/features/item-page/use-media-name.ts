import { useParams } from 'react-router';

/** The item name of the page's route (react-router has already decoded it). */
export function useMediaName(): string {
  return useParams().mediaName ?? '';
}
