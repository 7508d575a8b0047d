import { memo } from 'react';
import { useView } from '../../api/use-live.js';
import { ItemLink } from './ItemLink.js';
import { locationColumnsOf } from './location-columns.js';
import { ItemDeleteButton } from '../item-page/ItemDeleteButton.js';
import { LocationFigures } from './LocationFigures.js';
import { type LiveLocation, locationRowView } from './location-rows.js';
import classes from './media-rows.module.css';
import { PublishedRow } from './PublishedRow.js';
import { useOrderedKeys } from './use-location-names.js';

/** A location's row with its figures, then a row for each stream published into it. */
export const LocationRow = memo(function LocationRow(props: {
  prefix: string;
  selected: string | undefined;
  compact: boolean;
}) {
  const { prefix, compact } = props;
  const location = useView<LiveLocation>(['lives', prefix]);
  const published = useOrderedKeys(['lives', prefix, 'streams']);
  if (!location) return null;
  return (
    <>
      <div
        role="row"
        aria-label={prefix}
        aria-selected={props.selected === prefix}
        className={classes.row}
        style={{ gridTemplateColumns: locationColumnsOf(compact) }}
      >
        <div role="cell" className={classes.cell}>
          <ItemLink route="location-item" name={prefix}>
            {prefix}
          </ItemLink>
        </div>
        {!compact && <LocationFigures view={locationRowView(location)} />}
        <div role="cell">
          <ItemDeleteButton
            section="lives"
            itemKey={prefix}
            label={prefix}
            kind="location"
            hasDvr={Boolean(location.dvr)}
          />
        </div>
      </div>
      {published.map((name) => (
        <PublishedRow
          key={name}
          prefix={prefix}
          name={name}
          selected={props.selected === name}
          compact={compact}
        />
      ))}
    </>
  );
});
