import { Badge } from '@mantine/core';
import { useCanEdit } from '../api/access.js';

/** Beside Logout for a view_auth session: why nothing on the pages can be changed. */
export function ViewOnlyBadge() {
  if (useCanEdit()) return null;
  return (
    <Badge variant="light" color="gray" style={{ flexShrink: 0 }}>
      View only
    </Badge>
  );
}
