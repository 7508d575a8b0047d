import { Anchor, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { useLoaded } from '../../api/use-live.js';
import { pathTo } from '../../app/routes.js';

/**
 * What an item page shows while its item is not in the config: the spec's loading text until the
 * whole config has arrived, then a not-found (a mistyped or deleted item would load forever).
 */
export function ItemMissing({
  kind,
  name,
  loadingText,
}: {
  kind: string;
  name: string;
  loadingText: string;
}) {
  if (!useLoaded()) return <Text>{loadingText}</Text>;
  return (
    <Stack gap="sm" maw={600}>
      <Title order={2}>
        {kind} {name} not found
      </Title>
      <Text>
        The server config has no {kind.toLowerCase()} named {name}: it may have been deleted or renamed.
      </Text>
      <Anchor component={Link} to={pathTo('root')}>
        Back to the media list
      </Anchor>
    </Stack>
  );
}
