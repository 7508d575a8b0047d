import { ItemForm } from '../item-page/ItemForm.js';
import { ThumbnailsRadio } from '../item-page/ThumbnailsRadio.js';
import { useLocationBase } from './use-location.js';

/** Thumbnails enabled or disabled for the location's streams (spec 001 §2 Process). */
export function LocationProcessTab() {
  const { base } = useLocationBase();
  return (
    <ItemForm base={base}>
      <ThumbnailsRadio base={base} disabledClears="flag" />
    </ItemForm>
  );
}
