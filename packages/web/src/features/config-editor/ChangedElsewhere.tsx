import { Alert, Box, Button, Group, Text } from '@mantine/core';
import { lineDiff } from './line-diff.js';

const BACKGROUND = { '-': 'var(--mantine-color-red-1)', '+': 'var(--mantine-color-green-1)', ' ': undefined };

/** The config editor's "changed elsewhere" choice (issue 17): Reload or Compare, and the comparison. */
export function ChangedElsewhere({
  mine,
  theirs,
  onReload,
  onCompare,
}: {
  mine: string;
  theirs: string | undefined;
  onReload: () => void;
  onCompare: () => void;
}) {
  return (
    <Alert color="orange" role="alert" title="Changed elsewhere">
      <Text size="sm" mb="xs">
        The config was changed elsewhere since you opened it. Saving your text would undo that change: Reload
        takes the saved config and drops your edits; Compare shows your text beside it.
      </Text>
      <Group gap="sm">
        <Button size="xs" onClick={onReload}>
          Reload
        </Button>
        <Button size="xs" variant="default" onClick={onCompare}>
          Compare
        </Button>
      </Group>
      {theirs !== undefined && <Comparison mine={mine} theirs={theirs} />}
    </Alert>
  );
}

function Comparison({ mine, theirs }: { mine: string; theirs: string }) {
  const lines = lineDiff(mine, theirs);
  return (
    <Box mt="sm">
      <Text size="xs" c="dimmed" mb={4}>
        - only in your text, + only in the saved config
      </Text>
      <Box
        component="pre"
        aria-label="Your text compared with the saved config"
        m={0}
        p="xs"
        bg="white"
        style={{
          maxHeight: 400,
          overflow: 'auto',
          fontSize: 12,
          border: '1px solid var(--mantine-color-gray-4)',
        }}
      >
        {lines.map((line, index) => (
          <div
            key={index}
            data-diff={line.kind === ' ' ? undefined : line.kind}
            style={{ background: BACKGROUND[line.kind] }}
          >
            {`${line.kind} ${line.text}`}
          </div>
        ))}
      </Box>
    </Box>
  );
}
