import { ReadOnlyFields } from '../../components/ReadOnlyFields.js';
import { Divider, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import type { LiveState } from '../../api/live-state.js';
import { useItemSaveFlow } from '../../api/use-item-save-flow.js';
import { useLive } from '../../api/use-live.js';
import { pathTo } from '../../app/routes.js';
import { FormErrorsProvider, useFormErrorsState } from '../../components/form-context.js';
import { TextField } from '../global-config/global-fields.js';
import { locationNameProblem, required } from '../media-list/item-names.js';
import { useVodBase } from './use-vod.js';
import { VodPathList } from './VodPathList.js';
import { VodSettingsSection } from './VodSettingsSection.js';
import { VodStateToggle } from './VodStateToggle.js';
import { SaveBar } from '../../components/SaveBar.js';

const NO_ISSUES: ReadonlyMap<string, string> = new Map();
const selectTaken = (state: LiveState) => ({ lives: state.server.lives, vods: state.server.vods });
const sameTaken = (a: ReturnType<typeof selectTaken>, b: ReturnType<typeof selectTaken>) =>
  a.lives === b.lives && a.vods === b.vods;

/**
 * Spec 002 §2 VOD overview: Name (the prefix: a new one moves the VOD and the page, as a location's
 * does), Description, the source paths, Save; the disable/enable toggle; the VOD settings.
 */
export function VodOverviewTab() {
  const { prefix, base } = useVodBase();
  const [name, setName] = useState(prefix);
  const taken = useLive(selectTaken, sameTaken);
  const renamed = name !== prefix;
  const problem = !name ? required('Name') : renamed ? locationNameProblem(name, taken) : undefined;
  const form = useFormErrorsState(NO_ISSUES);
  const flow = useItemSaveFlow(base, form.invalid || problem !== undefined);
  const navigate = useNavigate();
  const save = async () => {
    const saved = await flow.save(renamed ? name : undefined);
    if (saved && renamed) await navigate(pathTo('vod-item/overview', { mediaName: name }));
  };
  return (
    <Stack gap="lg" maw={700}>
      <VodStateToggle prefix={prefix} />
      <FormErrorsProvider value={form.value}>
        <ReadOnlyFields>
          <Stack gap="sm">
            <TextInput
              label="Name"
              aria-label="Name"
              value={name}
              onChange={(event) => setName(event.currentTarget.value.replace(/\s+/g, ''))}
              error={problem}
            />
            <TextField path={[...base, 'meta', 'comment']} label="Description" />
            <VodPathList prefix={prefix} base={base} />
            <SaveBar
              onSave={save}
              canSave={flow.canSave || (renamed && !problem && !flow.saving)}
              status={flow.status}
            />
          </Stack>
        </ReadOnlyFields>
      </FormErrorsProvider>
      <Divider />
      <VodSettingsSection prefix={prefix} />
    </Stack>
  );
}
