import { Anchor, Group, Stack, Title } from '@mantine/core';
import { Link, Outlet } from 'react-router';
import { pathTo } from '../../app/routes.js';
import { ItemTabs } from '../item-page/ItemTabs.js';
import { useMediaName } from '../item-page/use-media-name.js';
import { useFilePrefix } from './live-file.js';

/** The sub-pages of file-item (spec 000 §2, spec 002 §2 File pages). */
const TABS = [
  { label: 'Overview', route: 'file-item/overview' },
  { label: 'Output', route: 'file-item/output' },
  { label: 'Clients', route: 'file-item/clients' },
];

/** A VOD file's page (mediaName PREFIX/PATH), with a link to its VOD's settings. */
export function FilePage() {
  const name = useMediaName();
  const prefix = useFilePrefix(name);
  return (
    <Stack gap="md" component="section" aria-label={`file ${name}`}>
      <Group gap="md">
        <Title order={2} style={{ wordBreak: 'break-all' }}>
          {name}
        </Title>
        {prefix !== undefined && (
          <Anchor component={Link} to={pathTo('vod-item/overview', { mediaName: prefix })} size="sm">
            VOD config
          </Anchor>
        )}
      </Group>
      <ItemTabs label="file tabs" tabs={TABS} mediaName={name} />
      <Outlet key={name} />
    </Stack>
  );
}
