import classes from './media-rows.module.css';
import type { LocationRowView } from './location-rows.js';

/** The clients, bitrate, runtime and source cells of a location or published stream row. */
export function LocationFigures({ view }: { view: LocationRowView }) {
  return (
    <>
      <div role="cell" className={classes.number}>
        {view.clients}
      </div>
      <div role="cell" className={`${classes.number} ${classes.cell}`}>
        {view.bitrate}
      </div>
      <div role="cell" className={classes.runtime}>
        {view.runtime}
      </div>
      <div role="cell" className={`${classes.cell} ${classes.source}`} title={view.source}>
        {view.source}
      </div>
    </>
  );
}
