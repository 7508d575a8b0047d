import { ItemForm } from '../item-page/ItemForm.js';
import { ThumbnailsRadio } from '../item-page/ThumbnailsRadio.js';
import { useMirrorBase } from './use-mirror.js';

/** Spec 001 §2 Mirror item process: thumbnails disabled sets thumbnails null; enabled sets thumbnails.enabled. */
export function MirrorProcessTab() {
  const { base } = useMirrorBase();
  return (
    <ItemForm base={base}>
      <ThumbnailsRadio base={base} disabledClears="block" />
    </ItemForm>
  );
}
