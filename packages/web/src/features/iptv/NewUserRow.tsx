import { Button, Table, TextInput } from '@mantine/core';
import { useState } from 'react';
import { digitsOnly, parseInteger } from '../../lib/numbers.js';
import { createUser, type IptvUser } from './iptv-api.js';

const EMPTY = { name: '', email: '', maxSessions: '' };

/** Spec 002 §2, §5: the new-user row; save needs a name and an email. */
export function NewUserRow({ onCreated }: { onCreated: (user: IptvUser) => void }) {
  const [draft, setDraft] = useState(EMPTY);
  const [problem, setProblem] = useState<string>();
  const [saving, setSaving] = useState(false);
  const ready = draft.name.trim() !== '' && draft.email.trim() !== '';

  const save = async () => {
    setSaving(true);
    setProblem(undefined);
    try {
      const max = parseInteger(draft.maxSessions);
      const user = await createUser({
        name: draft.name.trim(),
        email: draft.email.trim(),
        ...(max !== null ? { max_sessions: max } : {}),
      });
      if (user) onCreated(user);
      setDraft(EMPTY);
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Table.Tr aria-label="new user">
      <Table.Td>
        <TextInput
          aria-label="New user name"
          placeholder="New user name"
          value={draft.name}
          error={problem}
          onChange={(event) => setDraft({ ...draft, name: event.currentTarget.value })}
        />
      </Table.Td>
      <Table.Td>
        <TextInput
          aria-label="New user email"
          placeholder="New user email"
          value={draft.email}
          onChange={(event) => setDraft({ ...draft, email: event.currentTarget.value })}
        />
      </Table.Td>
      <Table.Td />
      <Table.Td>
        <TextInput
          aria-label="Max sessions"
          placeholder="Max sessions"
          inputMode="numeric"
          w={90}
          value={draft.maxSessions}
          onChange={(event) => setDraft({ ...draft, maxSessions: digitsOnly(event.currentTarget.value) })}
        />
      </Table.Td>
      <Table.Td>
        <Button size="xs" onClick={() => void save()} disabled={!ready} loading={saving}>
          save
        </Button>
      </Table.Td>
    </Table.Tr>
  );
}
