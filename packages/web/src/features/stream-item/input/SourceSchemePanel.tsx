import { NativeSelect, Stack, Title } from '@mantine/core';
import { NotAppliedMark } from '../../../components/NotAppliedMark.js';
import { sourcePanel } from './source-entries.js';
import { IntegerOption, PidsOption, TextOption, TrueFalseOption } from './SourceOptionFields.js';

type Entry = Record<string, unknown> & { url: string };

/** Options by scheme (spec 001 §9): hls buffer; rtsp transport and tracks; ts subtitles, DVB, program, pids. */
export function SourceSchemePanel({
  entry,
  set,
}: {
  entry: Entry;
  set: (key: string, value: unknown) => void;
}) {
  const panel = sourcePanel(entry.url);
  if (!panel) return null;
  return (
    <Stack gap="sm">
      <Title order={5}>{panel.toUpperCase()} options</Title>
      {panel === 'hls' && <IntegerOption entry={entry} set={set} name="buffer" label="Buffer" />}
      {panel === 'hls' && entry.buffer !== undefined && (
        <NotAppliedMark field="streams.*.urls[].buffer" label="Buffer" />
      )}
      {panel === 'rtsp' && (
        <>
          <NativeSelect
            label="RTP transport"
            aria-label="RTP transport"
            data={['tcp', 'udp']}
            value={entry.rtp === 'udp' ? 'udp' : 'tcp'}
            onChange={(event) => set('rtp', event.currentTarget.value === 'udp' ? 'udp' : null)}
            maw={300}
          />
          <TextOption entry={entry} set={set} name="tracks" label="Tracks" />
        </>
      )}
      {panel === 'ts' && (
        <>
          <TrueFalseOption entry={entry} set={set} name="allow_subtitles" label="Subtitles" />
          <TrueFalseOption entry={entry} set={set} name="dvbsubs_ocr" label="DVB to WebVTT" />
          <NotAppliedMark field="streams.*.urls[].dvbsubs_ocr" label="DVB to WebVTT" />
          <IntegerOption entry={entry} set={set} name="program" label="Program" />
          <PidsOption entry={entry} set={set} />
        </>
      )}
    </Stack>
  );
}
