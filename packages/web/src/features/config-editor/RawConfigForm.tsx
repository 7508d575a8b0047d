import { Button, Group, Stack, Text } from '@mantine/core';
import { useCallback, useState } from 'react';
import { isStale } from '../../api/config-calls.js';
import { useSaveRunner } from '../../api/use-save-runner.js';
import { SaveStatus } from '../../components/SaveStatus.js';
import { ChangedElsewhere } from './ChangedElsewhere.js';
import { LineNumberedTextarea } from './LineNumberedTextarea.js';
import { useFollowConfig } from './use-follow-config.js';
import { type RawConfigProblem, useSaveRawConfig } from './use-raw-config.js';

export const CONFIG_WRONG_TEXT = 'Config is wrong';

/** The server's line and column beside its message (which may name them already). */
function where(p: RawConfigProblem): string {
  if (p.line === undefined || p.message.startsWith(`line ${p.line}`)) return p.message;
  return `line ${p.line}${p.column === undefined ? '' : `, column ${p.column}`}: ${p.message}`;
}

/** "Config text" with Save enabled only after an edit; a parse failure flags "Config is wrong" (spec 000 §2, §4). */
export function RawConfigForm({ initialText, revision }: { initialText: string; revision?: string }) {
  const [text, setText] = useState(initialText);
  const [edited, setEdited] = useState(false);
  const [problem, setProblem] = useState<RawConfigProblem | undefined>(undefined);
  const { status, saving, run } = useSaveRunner();
  const saveRaw = useSaveRawConfig();
  const take = useCallback((loaded: string) => {
    setText(loaded);
    setEdited(false);
    setProblem(undefined);
  }, []);
  const follow = useFollowConfig({ initialText, revision, edited, take });

  const save = () =>
    run(async () => {
      const found = await saveRaw(text).catch((error: unknown) => {
        // Saved elsewhere since this text was loaded: offer Reload / Compare, never overwrite.
        if (isStale(error)) follow.markRefused();
        throw error;
      });
      setProblem(found);
      if (found) throw new Error(CONFIG_WRONG_TEXT);
      setEdited(false);
    });

  return (
    <Stack gap="sm" w="100%" maw={1100}>
      {follow.changedElsewhere && (
        <ChangedElsewhere
          mine={text}
          theirs={follow.theirs}
          onReload={() => void follow.reload()}
          onCompare={() => void follow.compare()}
        />
      )}
      <LineNumberedTextarea
        label="Config text"
        value={text}
        onChange={(value) => {
          setText(value);
          setEdited(true);
        }}
        errorLine={problem?.line}
        jumpTo={problem}
      />
      <Group gap="sm" align="center">
        <Button onClick={() => void save()} disabled={!edited || saving}>
          Save
        </Button>
        {problem && (
          <Group gap="xs" role="alert">
            <Text c="red" fw={600} size="sm">
              {CONFIG_WRONG_TEXT}
            </Text>
            <Text c="red" size="sm">
              {where(problem)}
            </Text>
          </Group>
        )}
        {!problem && <SaveStatus status={status} />}
      </Group>
    </Stack>
  );
}
