import { Group, NavLink as MantineNavLink } from '@mantine/core';
import { NavLink } from 'react-router';
import { usePendingOwners } from '../../api/use-edit-owners.js';
import { pathTo } from '../../app/routes.js';

export interface ItemTab {
  label: string;
  route: string;
}

/** Whether an edit made at `owner` belongs to the tab at `url` (the overview: its exact path only). */
const ownedBy = (owner: string, url: string, exact: boolean) =>
  owner === url || (!exact && owner.startsWith(`${url}/`));

/**
 * The tabs of an item page, one link per sub-route; the overview matches its exact path only. A
 * tab holding unsaved edits carries a dot, described as "unsaved changes": its Save is the one
 * that sends them.
 */
export function ItemTabs({ label, tabs, mediaName }: { label: string; tabs: ItemTab[]; mediaName: string }) {
  const pending = [...usePendingOwners()];
  return (
    <Group component="nav" aria-label={label} gap={4} wrap="wrap">
      {tabs.map((tab) => {
        const to = pathTo(tab.route, { mediaName });
        const exact = tab.route.endsWith('/overview');
        const unsaved = pending.some((owner) => ownedBy(owner, to, exact));
        return (
          <MantineNavLink
            key={tab.route}
            component={NavLink}
            to={to}
            end={exact}
            label={tab.label}
            rightSection={unsaved ? <span aria-hidden="true">●</span> : undefined}
            aria-description={unsaved ? 'unsaved changes' : undefined}
            data-unsaved={unsaved || undefined}
            w="auto"
            style={{ borderRadius: 4 }}
          />
        );
      })}
    </Group>
  );
}
