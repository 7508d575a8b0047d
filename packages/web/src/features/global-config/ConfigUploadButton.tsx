import { Button, FileButton } from '@mantine/core';
import { importConfig } from '../../api/config-calls.js';
import { useLiveSync } from '../../api/live-context.js';
import { logIn } from '../../api/session.js';

interface ConfigUploadButtonProps {
  disabled: boolean;
  /** The form's save runner, so the import shows the same progress and outcome as a save. */
  run: (task: () => Promise<void>) => Promise<boolean>;
}

/** The admin login that an imported config sets, so this browser stays logged in after the import. */
function importedCredentials(text: string): { login: string; password: string } | undefined {
  const parsed = JSON.parse(text) as { edit_auth?: { login?: unknown; password?: unknown } };
  const auth = parsed.edit_auth;
  return typeof auth?.login === 'string' && typeof auth.password === 'string'
    ? { login: auth.login, password: auth.password }
    : undefined;
}

/** Upload config: the chosen JSON file's contents sent whole with the reset marker (spec 000 §4). */
export function ConfigUploadButton({ disabled, run }: ConfigUploadButtonProps) {
  const { store, connection } = useLiveSync();
  const upload = async (file: File | null) => {
    if (!file) return;
    const text = await file.text();
    await run(async () => {
      try {
        await importConfig(text);
      } catch (error) {
        // Spec 000 §8: config import errors are logged to the console (and shown by the save status).
        console.error('Config import failed:', error);
        throw error;
      }
      const credentials = importedCredentials(text);
      // A new admin password ends this browser's session: it logs in again with the imported one.
      if (credentials) await logIn(credentials);
      // The edits were made against the config just replaced.
      store.discard();
      await connection.refreshNow();
    });
  };
  return (
    <FileButton onChange={(file) => void upload(file)} accept="application/json,.json">
      {(props) => (
        <Button variant="default" disabled={disabled} {...props}>
          Upload config
        </Button>
      )}
    </FileButton>
  );
}
