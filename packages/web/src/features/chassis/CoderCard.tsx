import { Button, Card, Group, List, Progress, Stack, Text, Title } from '@mantine/core';
import type { ChassisCoder } from '@sluice/api';
import { API_BASE, jsonBody, request } from '../../api/http-client.js';

/** Boot stages run 0 to 9 (spec 002 §7 "Chassis coder"). */
const LAST_STAGE = 9;

/** POST chassis/coder_restart; the answer, and a failure, are not shown (spec 002 §8). */
const restart = (coder: number) =>
  void request(`${API_BASE}/chassis/coder_restart`, jsonBody({ coder })).catch(() => undefined);

/**
 * One coder (spec 002 §5 Chassis page): status, uptime in seconds and a restart button; its streams
 * while working, otherwise the boot progress, reading 'loading...' while the config is missing.
 */
export function CoderCard({ coder, loaded }: { coder: ChassisCoder; loaded: boolean }) {
  return (
    <Card withBorder aria-label={`Coder ${coder.coder}`}>
      <Stack gap="xs">
        <Group justify="space-between">
          <Title order={3}>Coder {coder.coder}</Title>
          <Button size="xs" variant="light" onClick={() => restart(coder.coder)}>
            restart
          </Button>
        </Group>
        <Text size="sm">
          {coder.status}, {Math.floor(coder.uptime / 1000)} s
        </Text>
        {coder.status === 'working' ? (
          <List size="sm">
            {coder.streams.map((s) => (
              <List.Item key={s.name}>{s.name}</List.Item>
            ))}
          </List>
        ) : (
          <Progress.Root size="lg">
            <Progress.Section value={loaded ? (coder.stage / LAST_STAGE) * 100 : 0}>
              <Progress.Label>{loaded ? `${coder.stage}/${LAST_STAGE}` : 'loading...'}</Progress.Label>
            </Progress.Section>
          </Progress.Root>
        )}
      </Stack>
    </Card>
  );
}
