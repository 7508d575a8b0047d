import { Alert, Badge, Button, Group, Loader, Stack, Table, Text, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useCanEdit } from '../../api/access.js';
import { useServerInfo } from '../../api/server-info.js';
import {
  CERTIFICATE_RELOAD_MS,
  COULD_NOT_OBTAIN,
  type CertificateInfo,
  IP_ADDRESS_REFUSAL,
  domainsOf,
  isIpAddress,
  requestCertificate,
} from './letsencrypt-call.js';

type Issuing =
  | { kind: 'idle' }
  | { kind: 'requesting' }
  | { kind: 'issued' }
  | { kind: 'refused'; message: string; reason?: string };

/**
 * The certificate status with LetsEncrypt issuing (spec 000 §2, §4, §5): what every TLS port
 * serves now, and for edit sessions a request for a new one. A returned certificate is shown and
 * the page reloads 1.5 s later (so the browser meets it on its next connection); a failure shows
 * 'Could not obtain certificate' with the CA's reason, and the old certificate stays in use.
 */
export function CertificateBlock() {
  const info = useServerInfo().data?.certificate;
  const canEdit = useCanEdit();
  const [returned, setReturned] = useState<CertificateInfo>();
  const [domains, setDomains] = useState(() => window.location.hostname);
  const [issuing, setIssuing] = useState<Issuing>({ kind: 'idle' });
  const cert = returned ?? info;

  useEffect(() => {
    if (issuing.kind !== 'issued') return;
    const timer = setTimeout(() => window.location.reload(), CERTIFICATE_RELOAD_MS);
    return () => clearTimeout(timer);
  }, [issuing.kind]);

  const issue = async () => {
    if (isIpAddress(window.location.hostname)) {
      setIssuing({ kind: 'refused', message: IP_ADDRESS_REFUSAL });
      return;
    }
    setIssuing({ kind: 'requesting' });
    try {
      const answer = await requestCertificate(domainsOf(domains));
      setReturned(answer.cert);
      setIssuing({ kind: 'issued' });
    } catch (error) {
      setIssuing({ kind: 'refused', message: COULD_NOT_OBTAIN, reason: (error as Error).message });
    }
  };

  return (
    <Stack gap="xs" mt="md" role="group" aria-label="Certificate">
      <Group gap="xs">
        <Text fw={500}>Certificate</Text>
        {cert?.self_signed && (
          <Badge color="yellow" variant="light">
            Self-signed
          </Badge>
        )}
      </Group>
      {cert ? <CertificateTable cert={cert} /> : <Text c="dimmed">Not reported by the server.</Text>}
      {canEdit && (
        <Group align="flex-end" gap="sm">
          <TextInput
            label="Domains"
            description="Comma-separated names this server is reached by"
            value={domains}
            onChange={(event) => setDomains(event.currentTarget.value)}
            disabled={issuing.kind === 'requesting'}
            w={360}
          />
          <Button
            type="button"
            variant="light"
            onClick={() => void issue()}
            loading={issuing.kind === 'requesting'}
            disabled={issuing.kind === 'issued' || domainsOf(domains).length === 0}
          >
            Get certificate from LetsEncrypt
          </Button>
        </Group>
      )}
      {issuing.kind === 'requesting' && (
        <Group gap="xs">
          <Loader size="xs" />
          <Text size="sm">Requesting certificate…</Text>
        </Group>
      )}
      {issuing.kind === 'issued' && (
        <Text size="sm" c="green" role="status">
          Certificate obtained. Reloading the page…
        </Text>
      )}
      {issuing.kind === 'refused' && (
        <Alert color="red" title={issuing.message} role="alert">
          {issuing.reason}
        </Alert>
      )}
    </Stack>
  );
}

function CertificateTable({ cert }: { cert: CertificateInfo }) {
  const rows: [string, string][] = [
    ['Subject', cert.subject],
    ['Issuer', cert.issuer],
    ['Domains', cert.domains.join(', ')],
    ['Expires', cert.not_after.slice(0, 10)],
    ['File', cert.file],
  ];
  return (
    <Table withRowBorders={false} verticalSpacing={2} maw={720} aria-label="Certificate status">
      <Table.Tbody>
        {rows.map(([label, value]) => (
          <Table.Tr key={label}>
            <Table.Th w={100} fw={400} c="dimmed">
              {label}
            </Table.Th>
            <Table.Td style={{ overflowWrap: 'anywhere' }}>{value}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
