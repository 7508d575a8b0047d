import { Group, Stack, Title } from '@mantine/core';
import { Outlet } from 'react-router';
import { useView } from '../../api/use-live.js';
import { ItemMissing } from '../item-page/ItemMissing.js';
import { ChangedElsewhereNotice } from '../../components/ChangedElsewhereNotice.js';
import { ItemTabs } from '../item-page/ItemTabs.js';
import { useMediaName } from '../item-page/use-media-name.js';
import { ItemDeleteButton } from '../item-page/ItemDeleteButton.js';
import { useLocationExists } from './use-location.js';

/** The tabs of spec 001 §2 "Live location item". */
const TABS = [
  { label: 'Overview', route: 'location-item/overview' },
  { label: 'Input', route: 'location-item/input' },
  { label: 'Process', route: 'location-item/process' },
  { label: 'Output', route: 'location-item/output' },
  { label: 'DVR', route: 'location-item/dvr' },
  { label: 'Auth', route: 'location-item/auth' },
  { label: 'Clients', route: 'location-item/clients' },
  { label: 'History', route: 'location-item/history' },
];

/** A publishing location's page: 'Loading live location...' until it is in the config. */
export function LocationPage() {
  const prefix = useMediaName();
  const exists = useLocationExists(prefix);
  const hasDvr = useView(['lives', prefix, 'dvr']) !== undefined;
  if (!exists) return <ItemMissing kind="Location" name={prefix} loadingText="Loading live location..." />;
  return (
    <Stack gap="md" component="section" aria-label={`location ${prefix}`}>
      <Group gap="sm">
        <Title order={2}>{prefix}</Title>
        <ItemDeleteButton section="lives" itemKey={prefix} label={prefix} kind="location" hasDvr={hasDvr} />
      </Group>
      <ItemTabs label="location tabs" tabs={TABS} mediaName={prefix} />
      <ChangedElsewhereNotice item={['lives', prefix]} what="location" />
      <Outlet key={prefix} />
    </Stack>
  );
}
