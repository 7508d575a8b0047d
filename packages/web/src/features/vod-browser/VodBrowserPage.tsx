import { EditOnly } from '../../components/EditOnly.js';
import { Alert, Anchor, Group, Stack, Text } from '@mantine/core';
import { useCallback, useMemo, useState } from 'react';
import { Link, type To, useParams, useSearchParams } from 'react-router';
import { useView } from '../../api/use-live.js';
import { pathTo } from '../../app/routes.js';
import { useMediaName } from '../item-page/use-media-name.js';
import { LOADING_NOTICE } from './browser-constants.js';
import { joinSubpath, normalizeSubpath, parentOf, vodFileName } from './browser-paths.js';
import { makeDir, removeFile, type SourcePath } from './file-calls.js';
import { orderEntries } from './file-order.js';
import { FileTable } from './FileTable.js';
import { NewDirectoryForm } from './NewDirectoryForm.js';
import { PathField } from './PathField.js';
import { UploadForm } from './UploadForm.js';
import { useFileList } from './use-file-list.js';
import { VideoPanel } from './VideoPanel.js';

/** The directory shown is the page's `subpath` query, so Back and a reload keep it. */
const dirLink = (subpath: string): To => ({
  search: subpath === '' ? '' : `?${new URLSearchParams({ subpath })}`,
});

/** Spec 002 §2 VOD browser: the files of one source path of a VOD (/admin/vod/{mediaName}/tree/{number}). */
export function VodBrowserPage() {
  const prefix = useMediaName();
  const number = useParams().number ?? '0';
  const [search] = useSearchParams();
  const subpath = normalizeSubpath(search.get('subpath') ?? '');
  // A fresh view per directory: the open video and the directories made here belong to one directory.
  return (
    <DirectoryView
      key={`${prefix}\n${number}\n${subpath}`}
      prefix={prefix}
      number={number}
      subpath={subpath}
    />
  );
}

function DirectoryView({ prefix, number, subpath }: { prefix: string; number: string; subpath: string }) {
  const source: SourcePath = useMemo(() => ({ prefix, number }), [prefix, number]);
  const target = useMemo(() => ({ prefix, path: number, subpath }), [prefix, number, subpath]);
  const [, setSearch] = useSearchParams();
  const root = useView<string>(['vods', prefix, 'urls', number, 'url']);
  const list = useFileList(source, subpath);
  const [created, setCreated] = useState<ReadonlySet<string>>(new Set());
  const [openVideo, setOpenVideo] = useState<string>();
  const rows = useMemo(() => orderEntries(list.files ?? [], created), [list.files, created]);
  const names = useMemo(() => new Set((list.files ?? []).map((f) => f.name)), [list.files]);
  const { refresh } = list;

  const make = useCallback(
    async (name: string) => {
      const result = await makeDir(source, joinSubpath(subpath, name));
      if (result === 'made') setCreated((was) => new Set([...was, name]));
      await refresh();
      return result;
    },
    [source, subpath, refresh],
  );
  const remove = useCallback(
    async (name: string) => {
      await removeFile(source, joinSubpath(subpath, name));
      setOpenVideo((open) => (open === name ? undefined : open));
      await refresh();
    },
    [source, subpath, refresh],
  );
  const uploaded = useCallback(() => void refresh(), [refresh]);

  return (
    <Stack gap="md" component="section" aria-label="VOD browser">
      <Anchor component={Link} to={pathTo('vod-item/overview', { mediaName: prefix })} size="sm">
        back to VOD settings
      </Anchor>
      <PathField
        subpath={subpath}
        root={root}
        onOpen={(next) => setSearch(next === '' ? {} : { subpath: next })}
      />
      <EditOnly>
        <NewDirectoryForm existing={names} onMake={make} />
      </EditOnly>
      {list.notice && <Text>{LOADING_NOTICE}</Text>}
      {list.error && (
        <Alert color="red" role="alert">
          {list.error.message}
        </Alert>
      )}
      {/* The player beside the list; under it on a phone (data-narrow-stack, app/responsive.css). */}
      <Group gap="lg" align="flex-start" wrap="nowrap" data-narrow-stack>
        {list.files && (
          <FileTable
            rows={rows}
            directoryLink={(name) => dirLink(joinSubpath(subpath, name))}
            parentLink={subpath === '' ? undefined : dirLink(parentOf(subpath))}
            openVideo={openVideo}
            onToggleVideo={(name) => setOpenVideo((open) => (open === name ? undefined : name))}
            onRemove={remove}
          />
        )}
        {openVideo !== undefined && (
          <VideoPanel key={openVideo} fileName={vodFileName(prefix, subpath, openVideo)} />
        )}
      </Group>
      {!list.notice && (
        <EditOnly>
          <UploadForm target={target} onUploaded={uploaded} />
        </EditOnly>
      )}
    </Stack>
  );
}
