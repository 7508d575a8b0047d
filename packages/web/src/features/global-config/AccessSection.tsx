import { Anchor, Fieldset, Group, SimpleGrid } from '@mantine/core';
import { Link } from 'react-router';
import { pathTo } from '../../app/routes.js';
import { TextField } from './global-fields.js';

/** Access: the admin credentials (edit_auth) and links to auth backends and the Ad Injector. */
export function AccessSection() {
  return (
    <Fieldset legend="Access">
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <TextField path={['edit_auth', 'login']} label="Admin UI username" required />
        <TextField path={['edit_auth', 'password']} label="Admin UI password" required secret />
      </SimpleGrid>
      <Group mt="sm" gap="lg">
        <Anchor component={Link} to={pathTo('auth')}>
          Auth backends
        </Anchor>
        <Anchor component={Link} to={pathTo('ad_injector')}>
          Ad Injector
        </Anchor>
      </Group>
    </Fieldset>
  );
}
