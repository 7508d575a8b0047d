import { AppShell } from '@mantine/core';
import { Outlet } from 'react-router';
import { useServerStats } from '../api/use-live.js';
import { ConsoleReady } from './ConsoleReady.js';
import { headerHeightPx } from './header-height.js';
import { errorNotices } from './server-notices.js';
import { ShellHeader } from './ShellHeader.js';

/** The frame of every logged-in page: the header (menu, status, notifications) above the page. */
export function Shell() {
  const stats = useServerStats();
  const height = headerHeightPx(errorNotices(stats).length, Boolean(stats?.next_version));
  return (
    <AppShell header={{ height }} padding="md">
      <AppShell.Header>
        <ShellHeader stats={stats} />
      </AppShell.Header>
      <AppShell.Main>
        <ConsoleReady>
          <Outlet />
        </ConsoleReady>
      </AppShell.Main>
    </AppShell>
  );
}
