import { Group, NavLink as MantineNavLink } from '@mantine/core';
import { NavLink } from 'react-router';
import { pathTo } from '../../app/routes.js';

export interface ItemTab {
  label: string;
  route: string;
}

/** The tabs of an item page, one link per sub-route; the overview matches its exact path only. */
export function ItemTabs({ label, tabs, mediaName }: { label: string; tabs: ItemTab[]; mediaName: string }) {
  return (
    <Group component="nav" aria-label={label} gap={4} wrap="wrap">
      {tabs.map((tab) => (
        <MantineNavLink
          key={tab.route}
          component={NavLink}
          to={pathTo(tab.route, { mediaName })}
          end={tab.route.endsWith('/overview')}
          label={tab.label}
          w="auto"
          style={{ borderRadius: 4 }}
        />
      ))}
    </Group>
  );
}
