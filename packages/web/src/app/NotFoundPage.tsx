import { Anchor, Stack, Text, Title } from '@mantine/core';
import { Link, useLocation } from 'react-router';
import { pathTo } from './routes.js';

/** Any path without a page, including the routes whose screens later issues build. */
export function NotFoundPage() {
  const { pathname } = useLocation();
  return (
    <Stack gap="sm" maw={600}>
      <Title order={2}>Page not found</Title>
      <Text>This console has no page at {pathname}.</Text>
      <Anchor component={Link} to={pathTo('global-config')}>
        Open the global settings
      </Anchor>
    </Stack>
  );
}
