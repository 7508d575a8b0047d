import { Stack, Title } from '@mantine/core';
import { OUTPUT_PROTOCOLS, playbackUrls } from '@sluice/api';
import { useServerInfo } from '../../../api/server-info.js';
import { useConfigField } from '../../global-config/global-fields.js';
import { ConfigureHint } from './ConfigureHint.js';
import { ProtocolRow } from './ProtocolRow.js';
import { useOutputPorts } from './use-output-ports.js';

const NOT_CONFIGURED: Record<string, string> = {
  rtmp: 'RTMP is not configured, please enable it on global config page',
  rtsp: 'RTSP is not configured, please enable it on global config page',
};

/** The stream's playback URLs with their switches; outputs this server does not serve are left out. */
export function ProtocolUrls({ name }: { name: string }) {
  const ports = useOutputPorts();
  const outputs = useServerInfo().data?.capabilities.outputs;
  // A drm aes128 stream is served as TS HLS only (no fMP4 / LL-HLS URLs).
  const drmVendor = useConfigField<string>(['streams', name, 'drm', 'vendor']).value;
  const urls = playbackUrls(name, ports.host, ports, { encrypted: drmVendor === 'aes128' });
  const shown = OUTPUT_PROTOCOLS.filter((p) => !outputs || outputs.includes(p));
  return (
    <Stack gap="sm" aria-label="protocol urls">
      <Title order={4}>Protocols</Title>
      {shown.map((protocol) => (
        <ProtocolRow
          key={protocol}
          base={['streams', name]}
          protocol={protocol}
          urls={urls[protocol] ?? []}
          hint={
            NOT_CONFIGURED[protocol] && !urls[protocol] ? (
              <ConfigureHint text={NOT_CONFIGURED[protocol]} />
            ) : undefined
          }
        />
      ))}
    </Stack>
  );
}
