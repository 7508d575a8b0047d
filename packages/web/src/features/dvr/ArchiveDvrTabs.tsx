import { useMediaName } from '../item-page/use-media-name.js';
import { useOriginMirror } from '../mirrored/use-mirrored.js';
import { usePublishedLocation } from '../published-item/use-published.js';
import { DvrArchive } from './DvrArchive.js';

/** published-item/dvr (spec 000 §2): the archive of a stream published into a location. */
export function PublishedDvrTab() {
  const name = useMediaName();
  const prefix = usePublishedLocation(name);
  if (prefix === undefined) return null;
  return <DvrArchive name={name} statsPath={['lives', prefix, 'streams', name, 'stats']} />;
}

/** mirrored-item/dvr (spec 000 §2): the archive of a stream mirrored from an origin. */
export function MirroredDvrTab() {
  const name = useMediaName();
  const position = useOriginMirror(name);
  if (position === undefined) return null;
  return <DvrArchive name={name} statsPath={['sources', position, 'streams', name, 'stats']} />;
}
