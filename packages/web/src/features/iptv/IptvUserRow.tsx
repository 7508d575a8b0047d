import { Anchor, Button, Code, Group, Table, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { EditOnly } from '../../components/EditOnly.js';
import { useDebouncedCommit } from '../../components/use-debounced-commit.js';
import { digitsOnly, parseInteger } from '../../lib/numbers.js';
import { HIDDEN_KEY, type IptvUser, playlistUrl, updateUser } from './iptv-api.js';
import { IPTV_DEBOUNCE_MS } from './iptv-paging.js';

interface Draft {
  name: string;
  email: string;
  maxSessions: string;
}
const draftOf = (user: IptvUser): Draft => ({
  name: user.name ?? '',
  email: user.email ?? '',
  maxSessions: user.max_sessions ? String(user.max_sessions) : '',
});

/**
 * One user (spec 002 §2, §4): name, email and max sessions edited in place and saved 1 s after the
 * last keystroke (user_update with the user whole), the token, the playlist links and remove.
 */
export function IptvUserRow({
  user,
  onSaved,
  onRemove,
}: {
  user: IptvUser;
  onSaved: (user: IptvUser) => void;
  onRemove: (user: IptvUser) => Promise<void>;
}) {
  const [draft, setDraft] = useState(() => draftOf(user));
  const [problem, setProblem] = useState<string>();
  const [busy, setBusy] = useState(false);
  const { schedule } = useDebouncedCommit(IPTV_DEBOUNCE_MS);
  const label = user.name || `user ${user.id}`;

  const change = (patch: Partial<Draft>) => {
    const next = { ...draft, ...patch };
    setDraft(next);
    schedule(() => {
      updateUser({
        ...user,
        name: next.name.trim(),
        email: next.email.trim(),
        max_sessions: parseInteger(next.maxSessions),
      }).then(
        (saved) => {
          setProblem(undefined);
          if (saved) onSaved(saved);
        },
        (error: unknown) => setProblem(error instanceof Error ? error.message : String(error)),
      );
    });
  };

  const remove = () => {
    setBusy(true);
    onRemove(user).catch((error: unknown) => {
      setBusy(false);
      setProblem(error instanceof Error ? error.message : String(error));
    });
  };

  const host = window.location.origin;
  const key = user.key ?? '';
  return (
    <Table.Tr aria-label={`user ${label}`}>
      <Table.Td>
        <TextInput
          aria-label={`name of ${label}`}
          value={draft.name}
          onChange={(event) => change({ name: event.currentTarget.value })}
          error={problem}
        />
      </Table.Td>
      <Table.Td>
        <TextInput
          aria-label={`email of ${label}`}
          value={draft.email}
          onChange={(event) => change({ email: event.currentTarget.value })}
        />
      </Table.Td>
      <Table.Td>
        <Code aria-label={`token of ${label}`}>{key}</Code>
      </Table.Td>
      <Table.Td>
        <TextInput
          aria-label={`max sessions of ${label}`}
          inputMode="numeric"
          w={90}
          value={draft.maxSessions}
          onChange={(event) => change({ maxSessions: digitsOnly(event.currentTarget.value) })}
        />
      </Table.Td>
      <Table.Td>
        <Group gap="xs" wrap="nowrap">
          {key !== '' && key !== HIDDEN_KEY ? (
            <>
              <Anchor href={playlistUrl(host, user, 'mpegts')} aria-label={`MPEG-TS playlist of ${label}`}>
                MPEG-TS
              </Anchor>
              <Anchor href={playlistUrl(host, user, 'hls')} aria-label={`HLS playlist of ${label}`}>
                HLS
              </Anchor>
            </>
          ) : (
            <Text size="sm" c="dimmed">
              —
            </Text>
          )}
          <EditOnly>
            <Button
              size="xs"
              variant="light"
              color="red"
              loading={busy}
              onClick={remove}
              aria-label={`remove ${label}`}
            >
              remove
            </Button>
          </EditOnly>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}
