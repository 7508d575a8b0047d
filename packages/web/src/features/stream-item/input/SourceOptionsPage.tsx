import { ReadOnlyFields } from '../../../components/ReadOnlyFields.js';
import { Anchor, Stack, Text, Title } from '@mantine/core';
import { useMemo } from 'react';
import { Link, useParams } from 'react-router';
import { useItemSaveFlow } from '../../../api/use-item-save-flow.js';
import { pathTo } from '../../../app/routes.js';
import { FormErrorsProvider, useFormErrorsState } from '../../../components/form-context.js';
import { useMediaName } from '../../item-page/use-media-name.js';
import { SourceExtraOptions } from './SourceExtraOptions.js';
import { IntegerOption, TextOption } from './SourceOptionFields.js';
import { SourceSchemePanel } from './SourceSchemePanel.js';
import { useSourceEntry } from './use-source-entry.js';
import { SaveBar } from '../../../components/SaveBar.js';

const NO_ISSUES: ReadonlyMap<string, string> = new Map();

/** Options of one source (route stream-item-input-url-options), with 'back to input'. */
export function SourceOptionsPage() {
  const name = useMediaName();
  const index = Number.parseInt(useParams().sourceIndex ?? '', 10);
  const { entry, set, replace } = useSourceEntry(name, index);
  const base = useMemo(() => ['streams', name], [name]);
  const form = useFormErrorsState(NO_ISSUES);
  const flow = useItemSaveFlow(base, form.invalid);
  return (
    <FormErrorsProvider value={form.value}>
      <Stack gap="md" maw={700}>
        <Anchor component={Link} to={pathTo('stream-item/input', { mediaName: name })} size="sm">
          back to input
        </Anchor>
        {!entry ? (
          <Text>No source {index + 1}.</Text>
        ) : (
          <ReadOnlyFields>
            <Stack gap="md">
              <Title order={4}>{entry.url}</Title>
              <IntegerOption entry={entry} set={set} name="priority" label="Priority" />
              <IntegerOption entry={entry} set={set} name="source_timeout" label="Source timeout" />
              <TextOption entry={entry} set={set} name="user_agent" label="User agent" />
              <SourceSchemePanel key={entry.url} entry={entry} set={set} />
              <SourceExtraOptions entry={entry} replace={replace} />
            </Stack>
          </ReadOnlyFields>
        )}
        <SaveBar onSave={flow.save} canSave={flow.canSave} status={flow.status} />
      </Stack>
    </FormErrorsProvider>
  );
}
