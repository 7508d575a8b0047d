import { Button, FileButton, Text } from '@mantine/core';
import { useRef, useState } from 'react';
import { importConfig } from '../../api/config-calls.js';
import { useLiveSync } from '../../api/live-context.js';
import { logIn } from '../../api/session.js';
import { ImportConfirmModal, type PendingImport } from './ImportConfirmModal.js';
import { previewImport } from './import-preview-call.js';
import { importSummaryLines } from './import-summary-text.js';
import { jsonProblem, jsonProblemText } from './json-problem.js';

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

/**
 * Upload config: the chosen JSON file's contents sent whole with the reset marker (spec 000 §4),
 * after a confirmation naming what it changes. A file that is not JSON, or that the server would
 * refuse, is named with its problem (the line and column of a JSON mistake) and nothing is sent.
 */
export function ConfigUploadButton({ disabled, run }: ConfigUploadButtonProps) {
  const { store, connection } = useLiveSync();
  const [pending, setPending] = useState<PendingImport | undefined>(undefined);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const [checking, setChecking] = useState(false);
  // Cleared after each choice, so choosing the same file again (after Cancel) is seen.
  const resetRef = useRef<() => void>(null);

  const choose = async (file: File | null) => {
    resetRef.current?.();
    if (!file) return;
    setProblem(undefined);
    const text = await file.text();
    const broken = jsonProblem(text);
    if (broken) return setProblem(jsonProblemText(file.name, broken));
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      return setProblem(`${file.name} does not hold a config: its JSON is not an object`);
    setChecking(true);
    try {
      const summary = await previewImport(parsed as Record<string, unknown>);
      setPending({ fileName: file.name, text, lines: importSummaryLines(summary) });
    } catch (error) {
      setProblem(`${file.name} can't be uploaded: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      setChecking(false);
    }
  };

  const confirm = async () => {
    const chosen = pending;
    setPending(undefined);
    if (!chosen) return;
    await run(async () => {
      try {
        await importConfig(chosen.text);
      } catch (error) {
        // Spec 000 §8: config import errors are logged to the console (and shown by the save status).
        console.error('Config import failed:', error);
        throw error;
      }
      const credentials = importedCredentials(chosen.text);
      // A new admin password ends this browser's session: it logs in again with the imported one.
      if (credentials) await logIn(credentials);
      // The edits were made against the config just replaced.
      store.discard();
      await connection.refreshNow();
    });
  };

  return (
    <>
      <FileButton onChange={(file) => void choose(file)} accept="application/json,.json" resetRef={resetRef}>
        {(props) => (
          <Button variant="default" disabled={disabled || checking} loading={checking} {...props}>
            Upload config
          </Button>
        )}
      </FileButton>
      {problem && (
        <Text size="sm" c="red" role="alert">
          {problem}
        </Text>
      )}
      <ImportConfirmModal
        pending={pending}
        onConfirm={() => void confirm()}
        onCancel={() => setPending(undefined)}
      />
    </>
  );
}
