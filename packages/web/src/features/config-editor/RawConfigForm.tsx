import { Button, Group, Stack, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { useSaveRunner } from '../../api/use-save-runner.js';
import { SaveStatus } from '../../components/SaveStatus.js';
import { type RawConfigProblem, useSaveRawConfig } from './use-raw-config.js';

export const CONFIG_WRONG_TEXT = 'Config is wrong';

/** The server's line and column beside its message (which may name them already). */
function where(p: RawConfigProblem): string {
  if (p.line === undefined || p.message.startsWith(`line ${p.line}`)) return p.message;
  return `line ${p.line}${p.column === undefined ? '' : `, column ${p.column}`}: ${p.message}`;
}

/** "Config text" with Save enabled only after an edit; a parse failure flags "Config is wrong" (spec 000 §2, §4). */
export function RawConfigForm({ initialText }: { initialText: string }) {
  const [text, setText] = useState(initialText);
  const [edited, setEdited] = useState(false);
  const [problem, setProblem] = useState<RawConfigProblem | undefined>(undefined);
  const { status, saving, run } = useSaveRunner();
  const saveRaw = useSaveRawConfig();

  const save = () =>
    run(async () => {
      const found = await saveRaw(text);
      setProblem(found);
      if (found) throw new Error(CONFIG_WRONG_TEXT);
      setEdited(false);
    });

  return (
    <Stack gap="sm" w="100%" maw={1100}>
      <Textarea
        label="Config text"
        value={text}
        onChange={(event) => {
          setText(event.currentTarget.value);
          setEdited(true);
        }}
        autosize
        minRows={16}
        maxRows={40}
        spellCheck={false}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 13 } }}
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
