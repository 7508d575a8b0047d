import { ActionIcon, Anchor, Group, TextInput } from '@mantine/core';
import { convertSourceUrl } from '@sluice/api';
import { type DragEvent, useState } from 'react';
import { Link } from 'react-router';
import { pathTo } from '../../../app/routes.js';
import type { SourceStatus } from './source-entries.js';
import { SourceStatusCell } from './SourceStatusCell.js';

interface SourceRowProps {
  name: string;
  index: number;
  url: string;
  status: SourceStatus;
  locked: boolean;
  onSwitch: () => void;
  /** The typed URL after conversion; '' removes the source. */
  onCommit: (url: string) => void;
  onDrop: (from: number, to: number) => void;
}

const DRAG_TYPE = 'application/x-sluice-source';

/** One source URL: a drag handle, the URL (converted on blur, removed when emptied), its status, its options. */
export function SourceRow({ name, index, url, status, locked, onSwitch, onCommit, onDrop }: SourceRowProps) {
  const [text, setText] = useState(url);
  const drop = (event: DragEvent) => {
    const from = Number(event.dataTransfer.getData(DRAG_TYPE));
    if (!Number.isNaN(from) && from !== index) onDrop(from, index);
  };
  return (
    <Group
      gap="xs"
      wrap="nowrap"
      role="group"
      aria-label={`Source ${index + 1}`}
      onDragOver={(event) => event.preventDefault()}
      onDrop={drop}
    >
      <ActionIcon
        variant="subtle"
        aria-label={`Drag source ${index + 1}`}
        draggable
        onDragStart={(event) => event.dataTransfer.setData(DRAG_TYPE, String(index))}
        style={{ cursor: 'grab' }}
      >
        ⠿
      </ActionIcon>
      <TextInput
        aria-label={`Source URL ${index + 1}`}
        value={text}
        onChange={(event) => setText(event.currentTarget.value)}
        onBlur={() => {
          const next = convertSourceUrl(text.trim());
          setText(next);
          if (next !== url) onCommit(next);
        }}
        style={{ flex: 1 }}
      />
      <SourceStatusCell status={status} locked={locked} onSwitch={onSwitch} />
      <Anchor
        component={Link}
        size="sm"
        to={pathTo('stream-item/input-source', { mediaName: name, sourceIndex: String(index) })}
      >
        options
      </Anchor>
    </Group>
  );
}
