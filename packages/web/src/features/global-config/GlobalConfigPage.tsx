import { Stack, Tabs, Title } from '@mantine/core';
import { Outlet, useMatch, useNavigate } from 'react-router';
import { useCanEdit } from '../../api/access.js';
import { pathTo } from '../../app/routes.js';

/** Global config: two tabs, Settings and Config editor (spec 000 §2), each its own route. */
export function GlobalConfigPage() {
  const navigate = useNavigate();
  const onEditor = useMatch(pathTo('config-editor')) !== null;
  // The config file holds every password: the server reads it only to the admin login.
  const canEdit = useCanEdit();
  return (
    <Stack gap="md">
      <Title order={2}>Config</Title>
      <Tabs
        value={onEditor ? 'config-editor' : 'global-config'}
        onChange={(tab) => tab && void navigate(pathTo(tab))}
        keepMounted={false}
      >
        <Tabs.List>
          <Tabs.Tab value="global-config">Settings</Tabs.Tab>
          {canEdit && <Tabs.Tab value="config-editor">Config editor</Tabs.Tab>}
        </Tabs.List>
      </Tabs>
      <Outlet />
    </Stack>
  );
}
