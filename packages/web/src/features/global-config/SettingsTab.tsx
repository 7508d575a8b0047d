import { Button, Group, Stack } from '@mantine/core';
import { useLiveSync } from '../../api/live-context.js';
import { logIn } from '../../api/session.js';
import { useSaveFlow } from '../../api/use-save-flow.js';
import { FormErrorsProvider, useFormErrorsState } from '../../components/form-context.js';
import { EditOnly } from '../../components/EditOnly.js';
import { ReadOnlyFields } from '../../components/ReadOnlyFields.js';
import { SaveStatus } from '../../components/SaveStatus.js';
import { AccessSection } from './AccessSection.js';
import { AdditionalSection } from './AdditionalSection.js';
import { ConfigDownloadButton } from './ConfigDownloadButton.js';
import { ConfigUploadButton } from './ConfigUploadButton.js';
import { GLOBAL_SETTINGS_KEYS } from './global-keys.js';
import { ProtocolsSection } from './ProtocolsSection.js';
import { TlsSection } from './TlsSection.js';
import { useConfigIssues } from './use-config-issues.js';
import { WebScriptsSection } from './WebScriptsSection.js';

/** Global settings (spec 000 §2, tab Settings) except the certificate block. */
export function SettingsTab() {
  const { store } = useLiveSync();
  const form = useFormErrorsState(useConfigIssues(GLOBAL_SETTINGS_KEYS));
  const flow = useSaveFlow({ keys: GLOBAL_SETTINGS_KEYS, invalid: form.invalid });

  const save = async () => {
    const savesAuth = 'edit_auth' in flow.edits;
    // Only the edit_auth user can save, so a new admin login is this browser's login from now on: the
    // server ended the sessions of the old password, so this browser logs in again with the new one.
    // Read as edited, before the save: after it the view waits for the server's copy, which the
    // socket of the ended session no longer brings.
    const auth = store.viewAt(store.getState(), ['edit_auth']) as
      { login: string; password: string } | undefined;
    const saved = await flow.save();
    if (saved && savesAuth && auth) await logIn({ login: auth.login, password: auth.password });
  };

  return (
    <FormErrorsProvider value={form.value}>
      <Stack gap="md" maw={1100}>
        <ReadOnlyFields>
          <Stack gap="md">
            <ProtocolsSection />
            <TlsSection />
            <AdditionalSection />
            <AccessSection />
            <WebScriptsSection />
          </Stack>
        </ReadOnlyFields>
        <Group gap="sm">
          <EditOnly>
            <Button onClick={() => void save()} disabled={!flow.canSave}>
              Save
            </Button>
          </EditOnly>
          <ConfigDownloadButton onError={(error) => console.error('Config download failed:', error)} />
          <EditOnly>
            <ConfigUploadButton disabled={flow.saving} run={flow.run} />
            <SaveStatus status={flow.status} />
          </EditOnly>
        </Group>
      </Stack>
    </FormErrorsProvider>
  );
}
