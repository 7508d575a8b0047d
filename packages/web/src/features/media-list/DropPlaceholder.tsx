import { Text } from '@mantine/core';
import { ROW_HEIGHT_PX } from './stream-columns.js';

/** Where a dragged stream would land (spec 000 §2). */
export function DropPlaceholder() {
  return (
    <div
      role="row"
      style={{
        height: ROW_HEIGHT_PX,
        display: 'flex',
        alignItems: 'center',
        padding: '0 8px',
        border: '2px dashed var(--mantine-color-teal-text)',
        background: 'var(--mantine-color-teal-light)',
      }}
    >
      <Text role="cell" size="sm" c="teal">
        Drop stream here
      </Text>
    </div>
  );
}
