import type { MirrorStats } from '@sluice/api';
import { memo, useState } from 'react';
import { useView } from '../../api/use-live.js';
import { mirrorLabel } from '../mirror/live-mirror.js';
import { ItemDeleteButton } from '../item-page/ItemDeleteButton.js';
import { IgnoredRow } from './IgnoredRow.js';
import { ItemLink } from './ItemLink.js';
import classes from './mirror-rows.module.css';
import { MirroredRow } from './MirroredRow.js';
import { MirrorModeControls } from './MirrorModeControls.js';
import { MirrorServers } from './MirrorServers.js';
import { useOrderedKeys } from './use-location-names.js';

const NONE: readonly string[] = [];

/**
 * One origin mirror (spec 000 §2): its urls with a health dot per server, its mode controls and
 * delete, then its mirrored streams and the streams it ignores. Each part reads only its own slice
 * of sources[POS], so a stream's figures re-render that stream's row alone.
 */
export const MirrorBlock = memo(function MirrorBlock(props: {
  position: string;
  /** The position of the mirror the page shows, if any. */
  selectedMirror: string | undefined;
  /** The mirrored stream the page shows, if any. */
  selectedStream: string | undefined;
  compact: boolean;
}) {
  const { position, compact } = props;
  const base = ['sources', position];
  const urls = useView<string[]>([...base, 'urls']) ?? NONE;
  const title = useView<string>([...base, 'title']);
  const only = useView<string[]>([...base, 'only']);
  const except = useView<string[]>([...base, 'except']);
  const hasDvr = useView([...base, 'dvr']) !== undefined;
  const stats = useView<MirrorStats>([...base, 'stats']);
  const names = useOrderedKeys([...base, 'streams']);
  const [showOnDemand, setShowOnDemand] = useState(true);
  const label = mirrorLabel({ title, urls }, position);
  return (
    <div role="rowgroup" aria-label={`mirror ${label}`}>
      <div
        role="row"
        aria-label={label}
        aria-selected={props.selectedMirror === position}
        className={classes.head}
      >
        <div role="cell">
          <ItemLink route="mirror-item" name={position}>
            {label}
          </ItemLink>
          <MirrorServers urls={urls} stats={stats} />
        </div>
        <div role="cell" style={{ flex: '1 1 auto' }}>
          {!compact && (
            <MirrorModeControls
              position={position}
              lists={{ only, except }}
              showOnDemand={showOnDemand}
              onShowOnDemand={setShowOnDemand}
            />
          )}
        </div>
        <div role="cell">
          <ItemDeleteButton
            section="sources"
            itemKey={position}
            label={label}
            kind="mirror"
            hasDvr={hasDvr}
          />
        </div>
      </div>
      {names.map((name) => (
        <MirroredRow
          key={name}
          position={position}
          name={name}
          urls={urls}
          hideOnDemand={!showOnDemand}
          selected={props.selectedStream === name}
          compact={compact}
        />
      ))}
      {(except ?? NONE).map((name) => (
        <IgnoredRow
          key={`except:${name}`}
          position={position}
          name={name}
          streamNames={names}
          compact={compact}
        />
      ))}
    </div>
  );
});
