import { AppShell } from '@mantine/core';
import { Outlet } from 'react-router';
import type { LiveState } from '../api/live-state.js';
import { useLive } from '../api/use-live.js';
import { ConsoleReady } from './ConsoleReady.js';
import { headerHeightPx } from './header-height.js';
import { errorNotices } from './server-notices.js';
import { ShellHeader } from './ShellHeader.js';

const selectHeight = (state: LiveState) =>
  headerHeightPx(errorNotices(state.server.stats).length, Boolean(state.server.stats?.next_version));

/**
 * The frame of every logged-in page: the header (menu, status, notifications) above the page. It
 * reads only the header's height, so the server's figures changing each second re-render the
 * status line and not the whole frame.
 */
export function Shell() {
  const height = useLive(selectHeight);
  return (
    <AppShell header={{ height }} padding="md">
      <AppShell.Header>
        <ShellHeader />
      </AppShell.Header>
      <AppShell.Main>
        <ConsoleReady>
          <Outlet />
        </ConsoleReady>
      </AppShell.Main>
    </AppShell>
  );
}
