import { Badge, Group, Stack, Title } from '@mantine/core';
import { Outlet } from 'react-router';
import { useView } from '../../api/use-live.js';
import { ChangedElsewhereNotice } from '../../components/ChangedElsewhereNotice.js';
import { ItemTabs } from '../item-page/ItemTabs.js';
import { useMediaName } from '../item-page/use-media-name.js';
import { useVodExists } from './use-vod.js';

/** The tabs of the vod-item route (spec 000 §2, spec 002 §2); tree/{number} opens from 'browse'. */
const TABS = [
  { label: 'Overview', route: 'vod-item/overview' },
  { label: 'Input', route: 'vod-item/input' },
  { label: 'Output', route: 'vod-item/output' },
  { label: 'Auth', route: 'vod-item/auth' },
];

/** A VOD location's page (route vod-item; mediaName is its prefix); empty while no VOD is there. */
export function VodPage() {
  const prefix = useMediaName();
  const exists = useVodExists(prefix);
  const disabled = useView<boolean>(['vods', prefix, 'disabled']) === true;
  if (!exists) return null;
  return (
    <Stack gap="md" component="section" aria-label={`vod ${prefix}`}>
      <Group gap="sm">
        <Title order={2}>{prefix}</Title>
        {disabled && (
          <Badge color="gray" variant="light">
            disabled
          </Badge>
        )}
      </Group>
      <ItemTabs label="vod tabs" tabs={TABS} mediaName={prefix} />
      <ChangedElsewhereNotice item={['vods', prefix]} what="VOD" />
      <Outlet key={prefix} />
    </Stack>
  );
}
