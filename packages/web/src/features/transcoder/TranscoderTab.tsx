import { EditOnly } from '../../components/EditOnly.js';
import { ReadOnlyFields } from '../../components/ReadOnlyFields.js';
import { Stack } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useItemSaveFlow } from '../../api/use-item-save-flow.js';
import { FormErrorsProvider, useFormErrorsState } from '../../components/form-context.js';
import { useMediaName } from '../item-page/use-media-name.js';
import { AudioSection } from './AudioSection.js';
import { GlobalSelectors } from './GlobalSelectors.js';
import { OtherSettings } from './OtherSettings.js';
import { TranscoderActions } from './TranscoderActions.js';
import { isEnabled } from './transcoder-model.js';
import { useLogosAfterSave } from './use-logos.js';
import { useTranscoder } from './use-transcoder.js';
import { VideoTracks } from './VideoTracks.js';

const NO_ISSUES: ReadonlyMap<string, string> = new Map();

/**
 * The stream's Transcoder tab (spec 001 §2 "Transcoder"): the hardware selectors, the video tracks,
 * Audio and 'Other settings', saved as one delta keyed by the stream like the other item tabs;
 * its own button row for Enable, Disable, Copy and Paste.
 */
export function TranscoderTab() {
  const name = useMediaName();
  const base = useMemo(() => ['streams', name], [name]);
  const form = useFormErrorsState(NO_ISSUES);
  const flow = useItemSaveFlow(base, form.invalid);
  useLogosAfterSave(flow.status);
  const transcoder = useTranscoder(name);
  const [expanded, setExpanded] = useState<string | null>(null);
  const enabled = isEnabled(transcoder.value);
  return (
    <FormErrorsProvider value={form.value}>
      <Stack gap="lg" maw={1000}>
        {enabled && (
          <>
            <ReadOnlyFields>
              <GlobalSelectors name={name} transcoder={transcoder} />
            </ReadOnlyFields>
            <VideoTracks transcoder={transcoder} expanded={expanded} onExpand={setExpanded} />
            <ReadOnlyFields>
              <Stack gap="lg">
                <AudioSection transcoder={transcoder} />
                <OtherSettings transcoder={transcoder} />
              </Stack>
            </ReadOnlyFields>
          </>
        )}
        <EditOnly>
          <TranscoderActions transcoder={transcoder} flow={flow} onReplaced={setExpanded} />
        </EditOnly>
      </Stack>
    </FormErrorsProvider>
  );
}
