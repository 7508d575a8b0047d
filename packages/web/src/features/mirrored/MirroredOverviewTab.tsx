import { Stack, TextInput } from '@mantine/core';
import { useMediaName } from '../item-page/use-media-name.js';
import { mirroredRowView } from '../media-list/mirrored-row-view.js';
import { useView } from '../../api/use-live.js';
import { useMirroredStream, useOriginMirror } from './use-mirrored.js';

const NONE: readonly string[] = [];

/** The mirrored stream's name and display status, read-only: the origin decides both. */
export function MirroredOverviewTab() {
  const name = useMediaName();
  const position = useOriginMirror(name) ?? '';
  const stream = useMirroredStream(position, name);
  const urls = useView<string[]>(['sources', position, 'urls']) ?? NONE;
  const view = stream && mirroredRowView(stream, urls);
  const status = view ? [view.status.label, view.status.detail, view.error].filter(Boolean).join(', ') : '';
  return (
    <Stack gap="sm" maw={600}>
      <TextInput label="Name" aria-label="Name" readOnly value={name} />
      <TextInput label="Status" aria-label="Status" readOnly value={status} />
      {stream?.stats.url && (
        <TextInput label="Source" aria-label="Source" readOnly value={stream.stats.url} />
      )}
    </Stack>
  );
}
