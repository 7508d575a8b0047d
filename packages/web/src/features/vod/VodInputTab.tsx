import { ItemForm } from '../item-page/ItemForm.js';
import { useVodBase } from './use-vod.js';
import { VodPathList } from './VodPathList.js';

/** vod-item/input: where the VOD's files come from, its source paths (searched in order). */
export function VodInputTab() {
  const { prefix, base } = useVodBase();
  return (
    <ItemForm base={base}>
      <VodPathList prefix={prefix} base={base} />
    </ItemForm>
  );
}
