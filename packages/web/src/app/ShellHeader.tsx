import { Anchor, Burger, Group, Stack } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { type KeyboardEvent, useRef } from 'react';
import { Link } from 'react-router';
import { HeaderStatus } from './HeaderStatus.js';
import { LogoutButton } from './LogoutButton.js';
import { OfflineBanner } from './OfflineBanner.js';
import { pathTo } from './routes.js';
import { ServerNotifications } from './ServerNotifications.js';
import classes from './shell.module.css';
import { TopMenu } from './TopMenu.js';
import { ViewOnlyBadge } from './ViewOnlyBadge.js';

const MENU_ID = 'top-menu';

/**
 * Two 50 px rows (menu, then status or the offline message), then one 50 px row per notification.
 * Below 900 px the menu folds behind a menu button (shell.module.css); Escape closes it again and
 * gives the focus back to the button.
 */
export function ShellHeader() {
  const [menuOpen, menu] = useDisclosure(false);
  const button = useRef<HTMLButtonElement>(null);
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || !menuOpen) return;
    menu.close();
    button.current?.focus();
  };
  return (
    <Stack gap={0}>
      {/* In tab order the menu button comes before the links it opens (CSS places them). */}
      <Group h={50} px="md" gap="lg" wrap="nowrap" className={classes.menuRow} onKeyDown={onKeyDown}>
        <Anchor component={Link} to={pathTo('root')} fw={700} size="lg" underline="never">
          Sluice
        </Anchor>
        <Burger
          ref={button}
          size="md"
          opened={menuOpen}
          onClick={menu.toggle}
          aria-label="Menu"
          aria-expanded={menuOpen}
          aria-controls={MENU_ID}
          className={classes.menuButton}
        />
        <TopMenu id={MENU_ID} open={menuOpen} onNavigate={menu.close} />
        <ViewOnlyBadge />
        <LogoutButton className={classes.logout} />
      </Group>
      <Group h={50} px="md" wrap="nowrap" className={classes.statusRow}>
        <OfflineBanner fallback={<HeaderStatus />} />
      </Group>
      <ServerNotifications />
    </Stack>
  );
}
