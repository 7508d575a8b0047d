import { Anchor, Fieldset, Group, SimpleGrid } from '@mantine/core';
import { Link } from 'react-router';
import { useCanEdit } from '../../api/access.js';
import { pathTo } from '../../app/routes.js';
import { TextField } from './global-fields.js';
import { ViewAuthFields } from './ViewAuthFields.js';

/**
 * Access: the admin credentials (edit_auth), the view-only ones (view_auth) and links to auth
 * backends and the Ad Injector. A view-only session is never sent either pair (secret-fields.ts),
 * so it sees the links only.
 */
export function AccessSection() {
  const canEdit = useCanEdit();
  return (
    <Fieldset legend="Access">
      {canEdit && (
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextField path={['edit_auth', 'login']} label="Admin UI username" required />
          <TextField path={['edit_auth', 'password']} label="Admin UI password" required secret />
          <ViewAuthFields />
        </SimpleGrid>
      )}
      <Group mt={canEdit ? 'sm' : 0} gap="lg">
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
