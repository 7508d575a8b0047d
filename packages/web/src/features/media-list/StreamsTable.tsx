import { Text, VisuallyHidden } from '@mantine/core';
import type { SortKey, SortState } from '@sluice/api';
import { useVirtualizer } from '@tanstack/react-virtual';
import { type DragEvent, memo, useCallback, useId, useRef } from 'react';
import { DropPlaceholder } from './DropPlaceholder.js';
import { PLACEHOLDER, slotAt } from './drop-position.js';
import { OVERSCAN_ROWS, ROW_HEIGHT_PX } from './stream-columns.js';
import { StreamRow } from './StreamRow.js';
import { StreamsTableHeader } from './StreamsTableHeader.js';
import { useKeyboardReorder } from './use-keyboard-reorder.js';
import type { useStreamDrag } from './use-stream-drag.js';

interface Props {
  names: readonly string[];
  drag: ReturnType<typeof useStreamDrag>;
  reorderable: boolean;
  selected: string | undefined;
  compact: boolean;
  urlPublish: boolean;
  sort: SortState;
  onSort: (key: Exclude<SortKey, 'position'>) => void;
}

/**
 * The stream list, virtualised: 40 px rows, 10 more drawn beyond each edge, so 20,000 streams cost
 * what a screenful does. Rows are keyed by name and read their own data (see StreamRow).
 */
export const StreamsTable = memo(function StreamsTable({
  names,
  drag,
  reorderable,
  selected,
  compact,
  urlPublish,
  sort,
  onSort,
}: Props) {
  const scroller = useRef<HTMLDivElement>(null);
  const rows = drag.display;
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT_PX,
    overscan: OVERSCAN_ROWS,
    getItemKey: useCallback((index: number) => rows[index]!, [rows]),
  });
  const items = virtualizer.getVirtualItems();
  const keys = useKeyboardReorder(
    drag,
    scroller,
    useCallback((index: number) => virtualizer.scrollToIndex(index), [virtualizer]),
  );
  const moveHelpId = useId();
  // The dragged row stays mounted (hidden) while it is out of the list, or its dragend would be lost.
  const hidden = drag.dragged !== undefined && !rows.includes(drag.dragged) ? drag.dragged : undefined;

  const onDragOver = (event: DragEvent) => {
    if (!drag.active || !scroller.current) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'move';
    const box = scroller.current.getBoundingClientRect();
    drag.over(slotAt(event.clientY - box.top + scroller.current.scrollTop, ROW_HEIGHT_PX, rows.length));
  };
  const onDrop = (event: DragEvent) => {
    if (!drag.active) return;
    event.preventDefault();
    void drag.drop();
  };

  return (
    <>
      <VisuallyHidden id={moveHelpId}>
        Space or Enter picks the stream up, the arrow keys move it, Space or Enter drops it, Escape cancels.
      </VisuallyHidden>
      <VisuallyHidden aria-live="polite">{keys.announcement}</VisuallyHidden>
      <div role="table" aria-label="Streams" aria-rowcount={names.length}>
        <StreamsTableHeader sort={sort} onSort={onSort} compact={compact} />
        {names.length === 0 && !drag.active ? (
          <Text c="dimmed" p="md">
            No matching streams found
          </Text>
        ) : (
          <div
            ref={scroller}
            role="rowgroup"
            onDragOver={onDragOver}
            onDrop={onDrop}
            tabIndex={-1}
            onKeyDown={keys.onListKeyDown}
            onBlur={keys.onListBlur}
            style={{
              height: virtualizer.getTotalSize(),
              maxHeight: '65vh',
              overflowY: 'auto',
              contain: 'strict',
            }}
          >
            <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
              {items.map((item) => (
                <div
                  key={item.key}
                  style={{
                    position: 'absolute',
                    top: 0,
                    left: 0,
                    right: 0,
                    transform: `translateY(${item.start}px)`,
                  }}
                >
                  {rows[item.index] === PLACEHOLDER ? (
                    <DropPlaceholder />
                  ) : (
                    <StreamRow
                      name={rows[item.index]!}
                      urlPublish={urlPublish}
                      compact={compact}
                      selected={rows[item.index] === selected}
                      onDragStart={reorderable ? drag.start : undefined}
                      onMoveKeyDown={reorderable ? keys.onHandleKeyDown : undefined}
                      moveHelpId={moveHelpId}
                    />
                  )}
                </div>
              ))}
              {hidden && (
                <div key={hidden} style={{ position: 'absolute', top: 0, visibility: 'hidden', height: 0 }}>
                  <StreamRow name={hidden} urlPublish={urlPublish} compact={compact} selected={false} />
                </div>
              )}
            </div>
          </div>
        )}
      </div>
    </>
  );
});
