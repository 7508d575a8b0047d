import { useCanEdit } from '../../api/access.js';
import { Alert, Button, Fieldset, Group, Stack } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { useItemSaveFlow } from '../../api/use-item-save-flow.js';
import { FormErrorsProvider, useFormErrorsState } from '../../components/form-context.js';
import { NotAppliedMark } from '../../components/NotAppliedMark.js';
import { SaveStatus } from '../../components/SaveStatus.js';
import { CacheFields } from './CacheFields.js';
import { DvrReferenceField } from './DvrReferenceField.js';
import { DvrSettingsFields } from './DvrSettingsFields.js';
import { useDvrSettings } from './use-dvr-settings.js';

const NO_ISSUES: ReadonlyMap<string, string> = new Map();

/**
 * The DVR tab of a stream, location or mirror (spec 001 §2 DVR, §4): the global DVR selector, the
 * item's own DVR settings and, where the item has one, the SSD disk cache; Save sends one delta
 * keyed by the item, Reset drops this tab's unsaved edits. Read-only when the archive is external.
 * `children`: what follows the form (the stream's timeline).
 */
export function DvrTab({
  base,
  withCache,
  external = false,
  children,
}: {
  base: string[];
  withCache: boolean;
  external?: boolean;
  children?: ReactNode;
}) {
  const settings = useDvrSettings(base);
  const form = useFormErrorsState(NO_ISSUES);
  const flow = useItemSaveFlow(base, form.invalid);
  const canEdit = useCanEdit();
  // Remounting the fields on Reset also drops typed text that was never valid enough to commit.
  const [generation, setGeneration] = useState(0);
  const reset = () => {
    settings.reset();
    setGeneration((n) => n + 1);
  };
  return (
    <FormErrorsProvider value={form.value}>
      <Stack gap="lg" maw={700} data-testid="media-dvr">
        {external && (
          <Alert color="gray">This stream's archive is external: its DVR settings are read-only.</Alert>
        )}
        {external && <NotAppliedMark path={[...base, 'external_dvr']} label="External DVR" />}
        <Fieldset key={generation} variant="unstyled" disabled={external || !canEdit}>
          <Stack gap="lg">
            <DvrReferenceField settings={settings} />
            <DvrSettingsFields settings={settings} />
            {withCache && <CacheFields cachePath={settings.cachePath} />}
          </Stack>
        </Fieldset>
        {!external && canEdit && (
          <Group gap="sm">
            <Button onClick={() => void flow.save()} disabled={!flow.canSave}>
              Save
            </Button>
            <Button
              variant="default"
              onClick={reset}
              disabled={flow.saving || (!settings.changed && !form.invalid)}
            >
              Reset
            </Button>
            <SaveStatus status={flow.status} />
          </Group>
        )}
        {children}
      </Stack>
    </FormErrorsProvider>
  );
}
