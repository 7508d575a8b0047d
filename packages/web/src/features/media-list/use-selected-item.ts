import { useMatches, useParams } from 'react-router';

/** The media item routes (spec 000 §2) whose mediaName selects an item of the list. */
export const itemRoutes = [
  'stream-item',
  'location-item',
  'published-item',
  'vod-item',
  'file-item',
  'mirror-item',
  'mirrored-item',
] as const;
export type ItemRoute = (typeof itemRoutes)[number];

export interface SelectedItem {
  route: ItemRoute;
  /** URL-decoded by the router. */
  name: string;
}

const isItemRoute = (id: string): id is ItemRoute => (itemRoutes as readonly string[]).includes(id);

/** The item the URL selects, if any. */
export function useSelectedItem(): SelectedItem | undefined {
  const { mediaName } = useParams();
  const route = useMatches()
    .map((m) => m.id)
    .find(isItemRoute);
  return route && mediaName !== undefined ? { route, name: mediaName } : undefined;
}
