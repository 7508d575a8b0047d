import { TextField } from '../global-config/global-fields.js';
import { ItemForm } from '../item-page/ItemForm.js';
import { NameListField } from './NameListField.js';
import { useMirrorBase } from './use-mirror.js';

/**
 * Spec 001 §2 Mirror item overview: Description (meta.comment), Ignored streams (except), Taken
 * streams (only: the names pulled statically, the rest on demand, spec 000 §4).
 */
export function MirrorOverviewTab() {
  const { base } = useMirrorBase();
  return (
    <ItemForm base={base}>
      <TextField path={[...base, 'meta', 'comment']} label="Description" />
      <NameListField
        path={[...base, 'except']}
        label="Ignored streams"
        description="Separated by comma or space"
      />
      <NameListField
        path={[...base, 'only']}
        label="Taken streams"
        description="Separated by comma or space"
      />
    </ItemForm>
  );
}
