import { Group, Stack, Title } from '@mantine/core';
import { Outlet } from 'react-router';
import { useView } from '../../api/use-live.js';
import { ChangedElsewhereNotice } from '../../components/ChangedElsewhereNotice.js';
import { ItemTabs } from '../item-page/ItemTabs.js';
import { useMediaName } from '../item-page/use-media-name.js';
import { mirrorLabel } from './live-mirror.js';
import { ItemDeleteButton } from '../item-page/ItemDeleteButton.js';
import { useMirrorExists } from './use-mirror.js';

/** The tabs of spec 001 §2 "Mirror item". */
const TABS = [
  { label: 'Overview', route: 'mirror-item/overview' },
  { label: 'Input', route: 'mirror-item/input' },
  { label: 'Process', route: 'mirror-item/process' },
  { label: 'DVR', route: 'mirror-item/dvr' },
  { label: 'Output', route: 'mirror-item/output' },
  { label: 'Auth', route: 'mirror-item/auth' },
];

/** An origin mirror's page (route mirror-item; mediaName is its position); empty while no mirror is there. */
export function MirrorPage() {
  const position = useMediaName();
  const exists = useMirrorExists(position);
  const urls = useView<string[]>(['sources', position, 'urls']);
  const title = useView<string>(['sources', position, 'title']);
  const hasDvr = useView(['sources', position, 'dvr']) !== undefined;
  if (!exists) return null;
  const label = mirrorLabel({ title, urls }, position);
  return (
    <Stack gap="md" component="section" aria-label={`mirror ${label}`}>
      <Group gap="sm">
        <Title order={2}>{label}</Title>
        <ItemDeleteButton section="sources" itemKey={position} label={label} kind="mirror" hasDvr={hasDvr} />
      </Group>
      <ItemTabs label="mirror tabs" tabs={TABS} mediaName={position} />
      <ChangedElsewhereNotice item={['sources', position]} what="mirror" />
      <Outlet key={position} />
    </Stack>
  );
}
