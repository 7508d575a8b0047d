import classes from './media-rows.module.css';
import { FigureCells } from './RowCells.js';
import type { LocationRowView } from './location-rows.js';

/** The clients, bitrate, runtime and source cells of a location or published stream row. */
export function LocationFigures({ view }: { view: LocationRowView }) {
  return (
    <>
      <FigureCells view={view} />
      <div role="cell" className={`${classes.cell} ${classes.source}`} title={view.source}>
        {view.source}
      </div>
    </>
  );
}
