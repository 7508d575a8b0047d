import { Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { ReadOnlyFields } from '../../components/ReadOnlyFields.js';
import { EditOnly } from '../../components/EditOnly.js';
import { useDebouncedCommit } from '../../components/use-debounced-commit.js';
import { deleteUser, type IptvUser } from './iptv-api.js';
import { IPTV_DEBOUNCE_MS } from './iptv-paging.js';
import { IptvUserRow } from './IptvUserRow.js';
import { NewUserRow } from './NewUserRow.js';
import { useIptvUsers } from './use-iptv-users.js';

/**
 * Spec 002 §2, §4: the users table (name, email, token, max sessions) with its Filter, applied 1 s
 * after the last keystroke; a new-user row; each user with playlist links and remove. Pages of 30
 * come in as the view nears the page's bottom.
 */
export function IptvUsers() {
  const [filter, setFilter] = useState('');
  const [q, setQ] = useState('');
  const filterCommit = useDebouncedCommit(IPTV_DEBOUNCE_MS);
  const users = useIptvUsers(q, true);

  const remove = async (user: IptvUser) => {
    await deleteUser(user);
    users.removed(user);
  };

  return (
    <Stack gap="sm" component="section" aria-label="IPTV users">
      <Title order={3}>Users</Title>
      <TextInput
        label="Filter"
        aria-label="Filter users"
        value={filter}
        maw={320}
        onChange={(event) => {
          const text = event.currentTarget.value;
          setFilter(text);
          filterCommit.schedule(() => setQ(text.trim()));
        }}
      />
      <Table.ScrollContainer minWidth={720}>
        <ReadOnlyFields>
          <Table aria-label="IPTV users" aria-busy={users.loading} data-count={users.users.length}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>name</Table.Th>
                <Table.Th>email</Table.Th>
                <Table.Th>token</Table.Th>
                <Table.Th>max sessions</Table.Th>
                <Table.Th>playlists</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              <EditOnly>
                <NewUserRow onCreated={users.added} />
              </EditOnly>
              {users.users.map((user) => (
                <IptvUserRow key={String(user.id)} user={user} onSaved={users.updated} onRemove={remove} />
              ))}
            </Table.Tbody>
          </Table>
        </ReadOnlyFields>
      </Table.ScrollContainer>
      {users.error !== undefined && (
        <Text c="red" role="alert">
          {users.error instanceof Error ? users.error.message : String(users.error)}
        </Text>
      )}
      {users.loading && <Text c="dimmed">Loading users…</Text>}
    </Stack>
  );
}
