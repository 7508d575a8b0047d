import { Anchor, Stack } from '@mantine/core';
import { Link, Outlet, useLocation } from 'react-router';
import { pathTo } from '../../app/routes.js';
import classes from './media-page.module.css';

/** The open item's page, with the "back to list" link (spec 000 §2) that keeps the list's filter. */
export function MediaItemPane() {
  const { search } = useLocation();
  return (
    <Stack gap="sm">
      <Anchor component={Link} to={{ pathname: pathTo('root'), search }} size="sm" className={classes.back}>
        back to list
      </Anchor>
      <Outlet />
    </Stack>
  );
}
