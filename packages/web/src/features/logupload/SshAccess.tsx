import { Button, CopyButton, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { EditOnly } from '../../components/EditOnly.js';
import { fetchTunnel, switchTunnel, type TunnelStatus } from './support-api.js';

const QUERY_KEY = ['ssh-agent'];

/** The tunnel's real state in words: what ssh is doing now, or why not. */
function stateText(status: TunnelStatus): string {
  switch (status.state) {
    case 'unconfigured':
      return 'No support SSH host is set (support_ssh in the config): SSH access can not be enabled.';
    case 'starting':
      return `SSH access: connecting to ${status.host ?? 'the support host'}…`;
    case 'running':
      return `SSH access: running, ${status.host ?? 'the support host'} port ${status.remote_port ?? '?'} reaches this server.`;
    case 'failed':
      return `SSH access: failed: ${status.reason ?? 'ssh ended'}`;
    default:
      return 'SSH access: stopped.';
  }
}

/**
 * Spec 002 §2/§4: the SSH access toggle (LOADING, ENABLED, DISABLED). Enabling asks consent first,
 * then opens the support tunnel and uploads the debug data with a comment saying so; disabling is direct.
 */
export function SshAccess({ onEnabled }: { onEnabled: (status: TunnelStatus) => void }) {
  const queries = useQueryClient();
  const status = useQuery({ queryKey: QUERY_KEY, queryFn: fetchTunnel, refetchInterval: 5000 });
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const current = status.data;
  const enabled = current?.state === 'running' || current?.state === 'starting';

  const apply = async (enable: boolean) => {
    setAsking(false);
    setBusy(true);
    try {
      const next = await switchTunnel(enable);
      queries.setQueryData(QUERY_KEY, next);
      if (enable && next.state === 'running') onEnabled(next);
    } catch {
      await queries.invalidateQueries({ queryKey: QUERY_KEY });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack gap="xs" component="section" aria-label="Support SSH access">
      <Text role="status" data-state={current?.state ?? 'loading'}>
        {current ? stateText(current) : 'SSH access: loading…'}
      </Text>
      {current?.state === 'running' && current.remote_console_port ? (
        <Text data-testid="support-console-port">
          Console through the tunnel: {current.host ?? 'the support host'} port {current.remote_console_port}
        </Text>
      ) : null}
      {current?.public_key ? <SupportKey publicKey={current.public_key} /> : null}
      <EditOnly>
        <Group>
          <Button
            variant={enabled ? 'filled' : 'default'}
            color={enabled ? 'green' : undefined}
            aria-pressed={enabled}
            loading={busy || status.isPending}
            disabled={current?.state === 'unconfigured'}
            onClick={() => (enabled ? void apply(false) : setAsking(true))}
          >
            {enabled ? 'SSH access enabled' : 'SSH access disabled'}
          </Button>
        </Group>
      </EditOnly>
      <Modal opened={asking} onClose={() => setAsking(false)} title="Grant support SSH access">
        <Stack gap="sm">
          <Text>
            This opens a reverse SSH tunnel from this server to {current?.host ?? 'the support host'}: the
            support team can log in to this machine through it until you disable it. Your diagnostic data is
            uploaded too.
          </Text>
          <Group gap="xs">
            <Button onClick={() => void apply(true)}>I agree, enable access</Button>
            <Button variant="default" onClick={() => setAsking(false)}>
              Cancel
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}

/** The server's own key: the line support adds to the tunnel user's authorized_keys before connecting. */
function SupportKey({ publicKey }: { publicKey: string }) {
  return (
    <Group align="flex-end" gap="xs">
      <Textarea
        label="Server public key for support"
        description="Support adds this line to the authorized_keys of the support host's SSH user."
        value={publicKey}
        readOnly
        autosize
        minRows={1}
        style={{ flex: 1 }}
        styles={{ input: { fontFamily: 'monospace' } }}
      />
      <CopyButton value={publicKey}>
        {({ copied, copy }) => (
          <Button variant="default" onClick={copy}>
            {copied ? 'Copied' : 'Copy key'}
          </Button>
        )}
      </CopyButton>
    </Group>
  );
}
