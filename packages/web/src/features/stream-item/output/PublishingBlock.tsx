import { Stack, TextInput, Title } from '@mantine/core';
import { publishingEnabled, publishUrls } from '@sluice/api';
import { useUrlPublish } from '../../media-list/use-url-publish.js';
import { TextField } from '../../global-config/global-fields.js';
import { IntegerField } from '../stream-fields.js';
import { useStream } from '../use-stream.js';
import { ConfigureHint } from './ConfigureHint.js';
import { useOutputPorts } from './use-output-ports.js';
import { WebcamPublisher } from './WebcamPublisher.js';

/** Spec 001 §2 Output: shown only when publishing into the stream is accepted. */
export function PublishingBlock({ name }: { name: string }) {
  const stream = useStream(name);
  const urlPublish = useUrlPublish();
  const ports = useOutputPorts();
  if (!stream || !publishingEnabled(stream, urlPublish)) return null;
  const base = ['streams', name];
  return (
    <Stack gap="sm" aria-label="publishing">
      <Title order={4}>Publishing</Title>
      <WebcamPublisher name={name} password={stream.password} />
      {publishUrls(name, stream, ports.host, ports).map(({ label, url }) => (
        <TextInput
          key={label}
          label={label}
          aria-label={`${label} publish url`}
          readOnly
          value={url}
          maw={700}
        />
      ))}
      {(!ports.rtmp || !ports.rtsp) && (
        <ConfigureHint text="RTMP/RTSP not configured yet, please follow global config page" />
      )}
      <TextField path={[...base, 'password']} label="Password" />
      <IntegerField path={[...base, 'max_bitrate']} label="Max bitrate (Kbit/s)" />
      <TextField path={[...base, 'on_publish']} label="On publish" />
    </Stack>
  );
}
