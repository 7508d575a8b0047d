import { Stack, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useConfigField } from '../../global-config/global-fields.js';

type Push = { url: string } & Record<string, unknown>;

/** Push URLs (spec 001 §5): one emptied on blur is deleted; a blank row is always last. */
export function PushUrls({ base }: { base: string[] }) {
  const field = useConfigField<Push[]>([...base, 'pushes']);
  const pushes = field.value ?? [];
  const store = (next: Push[]) => field.set(next.length > 0 ? next : null);
  return (
    <Stack gap="xs">
      <Title order={4}>Push URLs</Title>
      {pushes.map((push, index) => (
        <PushRow
          key={`${index}:${push.url}`}
          label={`Push URL ${index + 1}`}
          url={push.url}
          onCommit={(url) =>
            store(
              url === ''
                ? pushes.filter((_, i) => i !== index)
                : pushes.map((p, i) => (i === index ? { ...p, url } : p)),
            )
          }
        />
      ))}
      <PushRow
        key={`new:${pushes.length}`}
        label="New push URL"
        url=""
        onCommit={(url) => url && store([...pushes, { url }])}
      />
    </Stack>
  );
}

function PushRow({ label, url, onCommit }: { label: string; url: string; onCommit: (url: string) => void }) {
  const [text, setText] = useState(url);
  return (
    <TextInput
      aria-label={label}
      placeholder={label}
      value={text}
      onChange={(event) => setText(event.currentTarget.value)}
      onBlur={() => text.trim() !== url && onCommit(text.trim())}
      maw={700}
    />
  );
}
