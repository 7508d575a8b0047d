import { useMemo } from 'react';
import { useLocationBase } from '../location-item/use-location.js';
import { useMediaName } from '../item-page/use-media-name.js';
import { useMirrorBase } from '../mirror/use-mirror.js';
import { useStream } from '../stream-item/use-stream.js';
import { DvrArchive } from './DvrArchive.js';
import { DvrTab } from './DvrTab.js';

/** stream-item/dvr: settings, cache and, once the stream has an archive, its timeline and player. */
export function StreamDvrTab() {
  const name = useMediaName();
  const base = useMemo(() => ['streams', name], [name]);
  const external = useStream(name)?.external_dvr === true;
  return (
    <DvrTab base={base} withCache external={external}>
      <DvrArchive name={name} statsPath={['streams', name, 'stats']} />
    </DvrTab>
  );
}

/** location-item/dvr: what its published streams record under (spec 001 §2 "as the stream equivalents"). */
export function LocationDvrTab() {
  const { base } = useLocationBase();
  return <DvrTab base={base} withCache />;
}

/** mirror-item/dvr: what its mirrored streams record under; a mirror has no cache (config schema). */
export function MirrorDvrTab() {
  const { base } = useMirrorBase();
  return <DvrTab base={base} withCache={false} />;
}
