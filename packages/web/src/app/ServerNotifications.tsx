import { Alert, Anchor, Group, Text } from '@mantine/core';
import { useState } from 'react';
import { useServerStats } from '../api/use-live.js';
import { errorNotices, isLongNotice } from './server-notices.js';

/** Spec 000 §2: "New version is out" with next_version, and the server's error strings. */
export function ServerNotifications() {
  const stats = useServerStats();
  return (
    <>
      {stats?.next_version && (
        <Alert
          h={50}
          py={0}
          radius={0}
          color="blue"
          variant="light"
          styles={{ body: { justifyContent: 'center' } }}
        >
          <Text size="sm">New version is out: {stats.next_version}</Text>
        </Alert>
      )}
      {errorNotices(stats).map((notice) => (
        <ErrorNotice key={notice.key} text={notice.text} />
      ))}
    </>
  );
}

/** One error string: long or multiline ones show their first line and expand on request. */
function ErrorNotice({ text }: { text: string }) {
  const [expanded, setExpanded] = useState(false);
  const long = isLongNotice(text);
  return (
    <Alert
      mih={50}
      py={6}
      radius={0}
      color="red"
      variant="light"
      role="alert"
      style={{ zIndex: expanded ? 1 : undefined }}
    >
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <Text
          size="sm"
          style={{
            flex: 1,
            whiteSpace: expanded ? 'pre-wrap' : 'nowrap',
            overflow: 'hidden',
            textOverflow: 'ellipsis',
          }}
        >
          {expanded || !long ? text : text.split('\n')[0]}
        </Text>
        {long && (
          <Anchor component="button" size="sm" onClick={() => setExpanded((e) => !e)}>
            {expanded ? 'Less' : 'More'}
          </Anchor>
        )}
      </Group>
    </Alert>
  );
}
