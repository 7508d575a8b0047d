import { Group, NavLink as MantineNavLink } from '@mantine/core';
import { NavLink } from 'react-router';
import { useServerInfo } from '../api/server-info.js';
import { pathTo } from './routes.js';

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

export function TopMenu() {
  const chassis = useServerInfo().data?.chassis === true;
  return (
    <Group component="nav" gap={4} wrap="nowrap" aria-label="main menu">
      {(chassis ? chassisMenu : normalMenu).map(([label, route]) => (
        <NavLink key={route} to={pathTo(route)} end={route === 'root'} style={{ textDecoration: 'none' }}>
          {({ isActive }) => (
            <MantineNavLink component="span" label={label} active={isActive} py={4} px={10} />
          )}
        </NavLink>
      ))}
    </Group>
  );
}
