import { Alert, Anchor, Stack, Title } from '@mantine/core';
import { playbackUrls } from '@sluice/api';
import { ItemForm } from '../item-page/ItemForm.js';
import { SharedOutputFields } from '../item-page/SharedOutputFields.js';
import { useOrderedKeys } from '../media-list/use-location-names.js';
import { useOutputPorts } from '../stream-item/output/use-output-ports.js';
import { useMirrorBase } from './use-mirror.js';

/**
 * Spec 001 §2 Mirror item output: where the mirrored streams play (they play on this server at the
 * paths of local streams), and the output settings the server hands to every mirrored stream: Max
 * sessions (auth) and Client timeout (how long an on-demand one runs after its last client).
 */
export function MirrorOutputTab() {
  const { base } = useMirrorBase();
  const ports = useOutputPorts();
  const names = useOrderedKeys([...base, 'streams']);
  return (
    <ItemForm base={base}>
      <Alert color="blue">
        Play {ports.http}/{'{NAME}'}/index.m3u8: replace {'{NAME}'} with the stream name.
      </Alert>
      {names.length > 0 && (
        <Stack gap={4} aria-label="output links">
          <Title order={4}>Output links</Title>
          {names.map((name) => {
            const hls = playbackUrls(name, ports.host, ports).hls?.[0] ?? '';
            return (
              <Anchor key={name} href={hls} target="_blank" rel="noreferrer" size="sm">
                {hls}
              </Anchor>
            );
          })}
        </Stack>
      )}
      <SharedOutputFields base={base} />
    </ItemForm>
  );
}
