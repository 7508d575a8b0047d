import { Alert, Button, Stack, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useView } from '../../api/use-live.js';
import { fetchStatus } from './iptv-api.js';
import { IptvSetup } from './IptvSetup.js';
import { IptvStreams } from './IptvStreams.js';
import { IptvUsers } from './IptvUsers.js';

/** The plugin: the database form while it has none or can't use it, else the streams and users. */
function IptvPlugin() {
  const database = useView<string>(['plugins', 'iptv', 'database']);
  // Asked again whenever the configured path changes (an enable, another browser's edit).
  const status = useQuery({
    queryKey: ['iptv-status', database ?? null],
    queryFn: fetchStatus,
    retry: false,
  });
  const suggestion = status.data?.default_database ?? '';
  if (database === undefined || database === '')
    return <IptvSetup key={suggestion} suggestion={suggestion} />;
  if (status.isPending) return null;
  const storeError = status.data?.error ?? (status.error ? status.error.message : undefined);
  if (storeError) return <IptvSetup configured={database} suggestion={suggestion} storeError={storeError} />;
  return (
    <Stack gap="xl">
      <IptvStreams />
      <IptvUsers />
    </Stack>
  );
}

/**
 * The IPTV page (spec 002 §2): a banner about the newer IPTV product and the 'IPTV plugin settings'
 * button that reveals the plugin.
 */
export function IptvPage() {
  const [shown, setShown] = useState(false);
  return (
    <Stack gap="md" maw={1100} component="section" aria-label="IPTV">
      <Title order={2}>IPTV</Title>
      <Alert variant="light" color="blue" title="A newer IPTV product exists">
        The IPTV plugin stays usable, but it will be deprecated in later releases.
      </Alert>
      <div>
        <Button variant="default" aria-expanded={shown} onClick={() => setShown((s) => !s)}>
          IPTV plugin settings
        </Button>
      </div>
      {shown && <IptvPlugin />}
    </Stack>
  );
}
