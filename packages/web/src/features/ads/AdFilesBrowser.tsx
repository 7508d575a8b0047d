import { Anchor, Checkbox, Paper, ScrollArea, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { LIST_LOADING_NOTICE_MS, LOADING_NOTICE } from '../vod-browser/browser-constants.js';
import { listFiles } from '../vod-browser/file-calls.js';
import { useDelayedFlag } from '../vod-browser/use-delayed-flag.js';
import { adFileName, isAdVideo, parentOf } from './ad-form.js';

/**
 * The fixed 'Files' browser (spec 002 §2): the VOD locations, then their folders (list_files of the
 * location's first path), a '.. parent directory' link and checkable video files (spec 002 §5
 * types only). Checking a file adds it to the open schedule; unchecking removes it.
 */
export function AdFilesBrowser({
  locations,
  checked,
  canCheck,
  onToggle,
}: {
  locations: readonly string[];
  checked: ReadonlySet<string>;
  /** A schedule is open to take the files. */
  canCheck: boolean;
  onToggle: (name: string, on: boolean) => void;
}) {
  const [at, setAt] = useState<{ prefix: string; subpath: string } | null>(null);
  const listing = useQuery({
    queryKey: ['ad-files', at?.prefix, at?.subpath],
    queryFn: () => listFiles({ prefix: at!.prefix, number: '0' }, at!.subpath),
    enabled: at !== null,
    retry: false,
  });
  const notice = useDelayedFlag(at !== null && listing.isPending, LIST_LOADING_NOTICE_MS);
  const entries = listing.data ?? [];
  const dirs = entries.filter((e) => e.type === 'directory');
  const videos = entries.filter((e) => e.type === 'file' && isAdVideo(e.name));

  return (
    <Paper withBorder p="md" component="section" aria-label="Files" pos="sticky" top={16}>
      <Stack gap="xs">
        <Title order={3}>Files</Title>
        {at && (
          <Text size="sm" c="dimmed">
            {adFileName(at.prefix, at.subpath, '')}
          </Text>
        )}
        <ScrollArea.Autosize mah="70vh">
          <Stack gap={4}>
            {at === null && locations.length === 0 && (
              <Text size="sm" c="dimmed">
                No VOD locations: add one to pick ad files.
              </Text>
            )}
            {at === null &&
              locations.map((prefix) => (
                <UnstyledButton key={prefix} onClick={() => setAt({ prefix, subpath: '' })}>
                  <Text c="blue">
                    <span aria-hidden>📁 </span>
                    {prefix}
                  </Text>
                </UnstyledButton>
              ))}
            {at !== null && (
              <Anchor
                component="button"
                type="button"
                ta="left"
                onClick={() => setAt(at.subpath === '' ? null : { ...at, subpath: parentOf(at.subpath) })}
              >
                .. parent directory
              </Anchor>
            )}
            {notice && (
              <Text size="sm" c="dimmed">
                {LOADING_NOTICE}
              </Text>
            )}
            {at !== null && listing.error && (
              <Text size="sm" c="red">
                {listing.error.message}
              </Text>
            )}
            {at !== null &&
              dirs.map((dir) => (
                <UnstyledButton
                  key={dir.name}
                  onClick={() =>
                    setAt({ ...at, subpath: at.subpath ? `${at.subpath}/${dir.name}` : dir.name })
                  }
                >
                  <Text c="blue">
                    <span aria-hidden>📁 </span>
                    {dir.name}
                  </Text>
                </UnstyledButton>
              ))}
            {at !== null &&
              videos.map((file) => {
                const name = adFileName(at.prefix, at.subpath, file.name);
                return (
                  <Checkbox
                    key={file.name}
                    label={file.name}
                    checked={checked.has(name)}
                    disabled={!canCheck}
                    onChange={(event) => onToggle(name, event.currentTarget.checked)}
                  />
                );
              })}
          </Stack>
        </ScrollArea.Autosize>
      </Stack>
    </Paper>
  );
}
