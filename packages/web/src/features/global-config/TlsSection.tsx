import { Fieldset, SimpleGrid } from '@mantine/core';
import { CertificateBlock } from './CertificateBlock.js';
import { PortField, PortListField } from './global-fields.js';

/** TLS-tunneled ports, and the certificate they serve with LetsEncrypt issuing (spec 000 §2). */
export function TlsSection() {
  return (
    <Fieldset legend="TLS-tunneled">
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <PortListField name="https" label="HTTPS ports" />
        <PortField name="rtmps" label="RTMPS port" />
        <PortField name="rtsps" label="RTSPS port" />
      </SimpleGrid>
      <CertificateBlock />
    </Fieldset>
  );
}
