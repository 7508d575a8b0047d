import { Group, NavLink as MantineNavLink } from '@mantine/core';
import { NavLink } from 'react-router';
import { useServerInfo } from '../api/server-info.js';
import { pathTo } from './routes.js';
import classes from './shell.module.css';

/** Spec 000 §2: the top menu of a normal server and of a chassis server. */
const normalMenu: [label: string, route: string][] = [
  ['Media', 'root'],
  ['Pulse', 'pulse'],
  ['Config', 'global-config'],
  ['Cluster', 'cluster'],
  ['IPTV', 'iptv'],
  ['IP Cameras', 'watcher'],
  ['Upload debug', 'logupload'],
];
const chassisMenu: [label: string, route: string][] = [
  ['Media', 'root'],
  ['Pulse', 'pulse'],
  ['Config', 'global-config'],
  ['Chassis', 'chassis'],
  ['Upload debug', 'logupload'],
];

/**
 * The menu's links (the router marks the current page with aria-current, which the theme shows as
 * active). On a narrow screen it is the panel the menu button opens (`open`); choosing an entry
 * calls `onNavigate` so the panel closes.
 */
export function TopMenu({ id, open, onNavigate }: { id?: string; open?: boolean; onNavigate?: () => void }) {
  const chassis = useServerInfo().data?.chassis === true;
  return (
    <Group
      component="nav"
      id={id}
      gap={4}
      wrap="nowrap"
      aria-label="main menu"
      className={classes.menu}
      data-open={open || undefined}
    >
      {(chassis ? chassisMenu : normalMenu).map(([label, route]) => (
        <MantineNavLink
          key={route}
          component={NavLink}
          to={pathTo(route)}
          end={route === 'root'}
          label={label}
          w="auto"
          py={4}
          px={10}
          className={classes.menuLink}
          onClick={onNavigate}
        />
      ))}
    </Group>
  );
}
