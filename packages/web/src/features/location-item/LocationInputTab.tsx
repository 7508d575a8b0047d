import { Alert, TextInput } from '@mantine/core';
import { publishUrls } from '@sluice/api';
import { ItemForm } from '../item-page/ItemForm.js';
import { useOutputPorts } from '../stream-item/output/use-output-ports.js';
import { SecondsField } from '../stream-item/stream-fields.js';
import { useLocationBase } from './use-location.js';

const NAME = '{NAME}';

/**
 * Spec 001 §2: the notice of the input tab, the full publish URLs of the location (spec 001 §9
 * shapes: rtmp://HOST:PORT/PREFIX/{NAME}), and the source timeout of streams published here.
 */
export function LocationInputTab() {
  const { prefix, base } = useLocationBase();
  const ports = useOutputPorts();
  // The builders encode the name's parts; the placeholder is shown as the notice writes it.
  const urls = publishUrls(`${prefix}/${NAME}`, {}, ports.host, ports).map(({ label, url }) => ({
    label,
    url: url.replaceAll(encodeURIComponent(NAME), NAME),
  }));
  return (
    <ItemForm base={base}>
      <Alert color="blue">
        Publish to {prefix}/{NAME}: replace {NAME} with any path to publish.
      </Alert>
      {urls.map(({ label, url }) => (
        <TextInput key={label} label={label} aria-label={`${label} publish url`} readOnly value={url} />
      ))}
      <SecondsField
        path={[...base, 'source_timeout']}
        label="Source timeout"
        description="How many seconds the server should wait before considering source as dead"
      />
    </ItemForm>
  );
}
