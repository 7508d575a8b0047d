import { Group, NavLink as MantineNavLink, Stack, Title } from '@mantine/core';
import { NavLink, Outlet } from 'react-router';
import { pathTo } from '../../app/routes.js';

/** Spec 002 §2 Cluster area: four tabs, each its own route. */
const TABS = [
  { label: 'Overview', route: 'cluster' },
  { label: 'Settings', route: 'cluster-settings' },
  { label: 'Ingest', route: 'cluster-ingest' },
  { label: 'Sources', route: 'cluster-sources' },
] as const;

export function ClusterPage() {
  return (
    <Stack gap="md">
      <Title order={2}>Cluster</Title>
      <Group component="nav" aria-label="cluster tabs" gap={4} wrap="wrap">
        {TABS.map((tab) => (
          <MantineNavLink
            key={tab.route}
            component={NavLink}
            to={pathTo(tab.route)}
            end
            label={tab.label}
            w="auto"
            style={{ borderRadius: 4 }}
          />
        ))}
      </Group>
      <Outlet />
    </Stack>
  );
}
