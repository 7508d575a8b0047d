import { Alert, Fieldset, SimpleGrid } from '@mantine/core';
import { useGlobal } from '../../api/use-live.js';
import { PortField, PortListField } from './global-fields.js';

export const NO_HTTP_PORTS_WARNING = 'With no HTTP ports you will lose access to this web interface.';

/** Protocols: HTTP ports, RTMP port, RTSP port; removing every HTTP port warns (spec 000 §5). */
export function ProtocolsSection() {
  const http = useGlobal('http');
  return (
    <Fieldset legend="Protocols">
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <PortListField name="http" label="HTTP ports" />
        <PortField name="rtmp" label="RTMP port" />
        <PortField name="rtsp" label="RTSP port" />
      </SimpleGrid>
      {(!http || http.length === 0) && (
        <Alert color="orange" mt="sm" role="alert">
          {NO_HTTP_PORTS_WARNING}
        </Alert>
      )}
    </Fieldset>
  );
}
