import { Fieldset, SimpleGrid } from '@mantine/core';
import { PortField, PortListField } from './global-fields.js';

/** TLS-tunneled ports. The certificate status and LetsEncrypt issuing come with the TLS issue. */
export function TlsSection() {
  return (
    <Fieldset legend="TLS-tunneled">
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <PortListField name="https" label="HTTPS ports" />
        <PortField name="rtmps" label="RTMPS port" />
        <PortField name="rtsps" label="RTSPS port" />
      </SimpleGrid>
    </Fieldset>
  );
}
