import { Stack, TextInput } from '@mantine/core';
import { useMediaName } from '../item-page/use-media-name.js';
import { FilePlayer } from './FilePlayer.js';
import { FileStats } from './FileStats.js';
import { useLiveFile } from './live-file.js';

/** Spec 002 §2 File overview: the name, read-only (it is the file's path), a player and stats. */
export function FileOverviewTab() {
  const name = useMediaName();
  const file = useLiveFile(name);
  return (
    <Stack gap="md" maw={720}>
      <TextInput label="Name" aria-label="Name" readOnly value={name} />
      <FilePlayer name={name} />
      <FileStats stats={file?.stats} />
    </Stack>
  );
}
