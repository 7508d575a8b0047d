import { Stack, TextInput, Title } from '@mantine/core';
import { publishingEnabled, publishUrls, pulledSources } from '@sluice/api';
import { useUrlPublish } from '../../media-list/use-url-publish.js';
import { TextField } from '../../global-config/global-fields.js';
import { IntegerField } from '../stream-fields.js';
import { useStream } from '../use-stream.js';
import { ConfigureHint } from './ConfigureHint.js';
import { useOutputPorts } from './use-output-ports.js';
import { WebcamPublisher } from './WebcamPublisher.js';

const PULLING_NOTE =
  'Not taken now: the stream pulls from its source. A publisher is taken while its sources are down.';

/** Spec 001 §2 Output: shown only when publishing into the stream is accepted. */
export function PublishingBlock({ name }: { name: string }) {
  const stream = useStream(name);
  const urlPublish = useUrlPublish();
  const ports = useOutputPorts();
  if (!stream || !publishingEnabled(stream, urlPublish)) return null;
  const base = ['streams', name];
  // The server tries the publish source after the stream's other urls (docs/media.md Publishing):
  // while one of them feeds the stream, a publisher is refused.
  const active = stream.stats?.url;
  const pulling = pulledSources(stream) > 0 && active !== undefined && !active.startsWith('publish://');
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
          disabled={pulling}
          description={pulling ? PULLING_NOTE : undefined}
          value={url}
          maw={700}
        />
      ))}
      {/* Each of RTMP and RTSP offers its publish URL only with its port set (global settings). */}
      {(!ports.rtmp || !ports.rtsp) && (
        <ConfigureHint text="RTMP/RTSP not configured yet, please follow global config page" />
      )}
      <TextField path={[...base, 'password']} label="Password" />
      <IntegerField path={[...base, 'max_bitrate']} label="Max bitrate (Kbit/s)" />
      <TextField path={[...base, 'on_publish']} label="On publish" />
    </Stack>
  );
}
