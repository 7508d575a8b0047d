import { Stack, TextInput } from '@mantine/core';
import { OUTPUT_PROTOCOLS, playbackUrls } from '@sluice/api';
import { useServerInfo } from '../../api/server-info.js';
import { useMediaName } from '../item-page/use-media-name.js';
import { useOutputPorts } from '../stream-item/output/use-output-ports.js';

/** The published stream's playback URLs, read-only (spec 001 §6: no change handler). */
export function PublishedOutputTab() {
  const name = useMediaName();
  const ports = useOutputPorts();
  const outputs = useServerInfo().data?.capabilities.outputs;
  const urls = playbackUrls(name, ports.host, ports);
  const shown = OUTPUT_PROTOCOLS.filter((p) => (!outputs || outputs.includes(p)) && urls[p]);
  return (
    <Stack gap="xs" maw={700}>
      {shown.flatMap((protocol) =>
        (urls[protocol] ?? []).map((url) => (
          <TextInput
            key={url}
            label={protocol.toUpperCase()}
            aria-label={`${protocol} url`}
            readOnly
            value={url}
          />
        )),
      )}
    </Stack>
  );
}
