import { Anchor, Group, Stack, Title } from '@mantine/core';
import { Link, Outlet } from 'react-router';
import { pathTo } from '../../app/routes.js';
import { ItemTabs } from '../item-page/ItemTabs.js';
import { useMediaName } from '../item-page/use-media-name.js';
import { usePublishedLocation, usePublishedStats } from './use-published.js';

const TABS = [
  { label: 'Overview', route: 'published-item/overview' },
  { label: 'Output', route: 'published-item/output' },
  { label: 'Clients', route: 'published-item/clients' },
];
const DVR_TAB = { label: 'DVR', route: 'published-item/dvr' };

/** A stream published into a location: empty while no location holds it (spec 001 §2). */
export function PublishedPage() {
  const name = useMediaName();
  const prefix = usePublishedLocation(name);
  if (prefix === undefined) return null;
  return <PublishedTabs name={name} prefix={prefix} />;
}

function PublishedTabs({ name, prefix }: { name: string; prefix: string }) {
  const hasDvr = usePublishedStats(prefix, name)?.dvr_info !== undefined;
  return (
    <Stack gap="md">
      <Group gap="md">
        <Title order={2}>{name}</Title>
        <Anchor component={Link} to={pathTo('location-item/overview', { mediaName: prefix })} size="sm">
          Location config
        </Anchor>
      </Group>
      <ItemTabs label="published tabs" tabs={hasDvr ? [...TABS, DVR_TAB] : TABS} mediaName={name} />
      <Outlet key={name} />
    </Stack>
  );
}
