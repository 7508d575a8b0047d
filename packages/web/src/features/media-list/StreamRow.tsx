import { Badge, Text } from '@mantine/core';
import { type DragEvent, memo } from 'react';
import { useView } from '../../api/use-live.js';
import { ItemLink } from './ItemLink.js';
import { PlayButton } from './PlayButton.js';
import { columnsOf, ROW_HEIGHT_PX } from './stream-columns.js';
import type { NamedStream } from './stream-facts.js';
import { statusColor, streamRowView } from './stream-row-view.js';

interface Props {
  name: string;
  urlPublish: boolean;
  compact: boolean;
  selected: boolean;
  /** Set while drag reorder is allowed. */
  onDragStart?: (name: string, event: DragEvent) => void;
}

const cell = { overflow: 'hidden', whiteSpace: 'nowrap', textOverflow: 'ellipsis' } as const;

/**
 * One stream of the list. It reads its own stream from the live store, so it re-renders when that
 * stream changed and for nothing else (memo keeps the table's renders out).
 */
export const StreamRow = memo(function StreamRow({
  name,
  urlPublish,
  compact,
  selected,
  onDragStart,
}: Props) {
  const stream = useView<NamedStream>(['streams', name]);
  if (!stream) return null;
  const view = streamRowView(name, stream, urlPublish);
  return (
    <div
      role="row"
      aria-selected={selected}
      aria-label={name}
      draggable={onDragStart !== undefined}
      onDragStart={onDragStart && ((event) => onDragStart(name, event))}
      style={{
        display: 'grid',
        gridTemplateColumns: columnsOf(compact),
        alignItems: 'center',
        columnGap: 8,
        height: ROW_HEIGHT_PX,
        padding: '0 8px',
        borderBottom: '1px solid var(--mantine-color-gray-2)',
        background: selected ? 'var(--mantine-color-teal-light)' : undefined,
        cursor: onDragStart ? 'grab' : undefined,
      }}
    >
      <div role="cell" style={cell}>
        <ItemLink route="stream-item" name={name}>
          {name}
        </ItemLink>
      </div>
      <div role="cell" style={cell} title={view.status.detail || undefined}>
        <Badge color={statusColor[view.status.kind]} variant="light" radius="sm" tt="none">
          {view.status.label}
        </Badge>
        {view.status.detail && (
          <Text span size="xs" c="dimmed" ml={6}>
            {view.status.detail}
          </Text>
        )}
      </div>
      {!compact && <StreamFigures view={view} />}
      <div role="cell">
        <PlayButton name={name} />
      </div>
    </div>
  );
});

function StreamFigures({ view }: { view: ReturnType<typeof streamRowView> }) {
  return (
    <>
      <Text role="cell" size="sm" ta="right">
        {view.clients}
      </Text>
      <Text role="cell" size="sm" ta="right" style={cell}>
        {view.bitrate}
      </Text>
      <Text role="cell" size="sm" ta="right" ff="monospace">
        {view.runtime}
      </Text>
      <div role="cell" style={{ ...cell, lineHeight: 1.25 }}>
        <Text size="xs" truncate="end" title={view.source}>
          {view.source}
        </Text>
        {view.error && (
          <Text size="xs" c="red" truncate="end" title={view.error}>
            {view.error}
          </Text>
        )}
      </div>
    </>
  );
}
