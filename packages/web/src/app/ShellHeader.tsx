import { Anchor, Group, Stack } from '@mantine/core';
import { Link } from 'react-router';
import { HeaderStatus } from './HeaderStatus.js';
import { LogoutButton } from './LogoutButton.js';
import { OfflineBanner } from './OfflineBanner.js';
import { pathTo } from './routes.js';
import { ServerNotifications } from './ServerNotifications.js';
import { TopMenu } from './TopMenu.js';

/** Two 50 px rows (menu, then status or the offline message), then one 50 px row per notification. */
export function ShellHeader() {
  return (
    <Stack gap={0}>
      <Group h={50} px="md" justify="space-between" wrap="nowrap">
        <Group gap="lg" wrap="nowrap">
          <Anchor component={Link} to={pathTo('root')} fw={700} size="lg" underline="never">
            Sluice
          </Anchor>
          <TopMenu />
        </Group>
        <LogoutButton />
      </Group>
      <Group h={50} px="md" wrap="nowrap">
        <OfflineBanner fallback={<HeaderStatus />} />
      </Group>
      <ServerNotifications />
    </Stack>
  );
}
