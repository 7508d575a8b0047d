import { Stack, Title } from '@mantine/core';
import { useServerInfo } from '../../api/server-info.js';
import { useView } from '../../api/use-live.js';
import { NotAppliedMark } from '../../components/NotAppliedMark.js';
import { ItemForm } from '../item-page/ItemForm.js';
import { ProtocolRow } from '../stream-item/output/ProtocolRow.js';
import { FlagField, IntegerField } from '../stream-item/stream-fields.js';
import { useVodBase } from './use-vod.js';
import { VodDownloadField } from './VodDownloadField.js';

/** The protocols a VOD file plays in besides the file itself (HLS, DASH, MPEG-TS). */
export const VOD_PROTOCOLS = ['hls', 'dash', 'mpegts'] as const;

/**
 * Spec 002 §2 VOD output: direct download, MBR from multiple files, Max sessions (per opened file),
 * and of the shared output settings those a file has: the protocol switches. Prepush and segment
 * count are hidden (spec); a file's segments follow its keyframes, so no segment duration either.
 */
export function VodOutputTab() {
  const { base } = useVodBase();
  const autoMbr = useView<boolean>([...base, 'auto_mbr']);
  const outputs = useServerInfo().data?.capabilities.outputs;
  const shown = VOD_PROTOCOLS.filter((p) => !outputs || outputs.includes(p));
  return (
    <ItemForm base={base} gap="lg">
      <VodDownloadField base={base} />
      <FlagField path={[...base, 'auto_mbr']} label="Enable MBR from multiple files" />
      {autoMbr === true && <NotAppliedMark path={[...base, 'auto_mbr']} label="MBR from multiple files" />}
      <IntegerField
        path={[...base, 'auth', 'max_sessions']}
        label="Max sessions"
        description="The maximum simultaneous users per opened file"
      />
      <Stack gap="sm" aria-label="protocols">
        <Title order={4}>Protocols</Title>
        {shown.map((protocol) => (
          <ProtocolRow key={protocol} base={base} protocol={protocol} urls={[]} />
        ))}
      </Stack>
    </ItemForm>
  );
}
