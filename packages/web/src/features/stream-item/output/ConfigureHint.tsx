import { Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';
import { pathTo } from '../../../app/routes.js';

/** Spec 001 §8: a protocol without a port, with the way to the global config page. */
export function ConfigureHint({ text }: { text: string }) {
  return (
    <Text size="sm" c="dimmed">
      <Anchor component={Link} to={pathTo('global-config')}>
        {text}
      </Anchor>
    </Text>
  );
}
