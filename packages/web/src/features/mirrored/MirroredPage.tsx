import { Anchor, Group, Stack, Title } from '@mantine/core';
import { Link, Outlet } from 'react-router';
import { pathTo } from '../../app/routes.js';
import { ItemTabs } from '../item-page/ItemTabs.js';
import { useMediaName } from '../item-page/use-media-name.js';
import { useMirroredStream, useOriginMirror } from './use-mirrored.js';

const TABS = [
  { label: 'Overview', route: 'mirrored-item/overview' },
  { label: 'Output', route: 'mirrored-item/output' },
  { label: 'Clients', route: 'mirrored-item/clients' },
];
const DVR_TAB = { label: 'DVR', route: 'mirrored-item/dvr' };

/** A stream mirrored from an origin: shown only once its mirror is found (spec 001 §2 Mirrored item). */
export function MirroredPage() {
  const name = useMediaName();
  const position = useOriginMirror(name);
  if (position === undefined) return null;
  return <MirroredTabs name={name} position={position} />;
}

function MirroredTabs({ name, position }: { name: string; position: string }) {
  const hasDvr = useMirroredStream(position, name)?.stats.dvr_info !== undefined;
  return (
    <Stack gap="md">
      <Group gap="md">
        <Title order={2}>{name}</Title>
        <Anchor component={Link} to={pathTo('mirror-item/overview', { mediaName: position })} size="sm">
          Mirror config
        </Anchor>
      </Group>
      <ItemTabs label="mirrored tabs" tabs={hasDvr ? [...TABS, DVR_TAB] : TABS} mediaName={name} />
      <Outlet key={name} />
    </Stack>
  );
}
