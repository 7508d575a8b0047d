import { List, Stack, Text } from '@mantine/core';
import { useClusterSources } from './cluster-calls.js';
import { sourceAddress, sourceFilters } from './cluster-format.js';
import { CallState } from './CallState.js';
import { ReloadButton } from './ReloadButton.js';

/** Spec 002 §2 Sources: each origin's {address}, its stream count and which of its streams are taken. */
export function SourcesTab() {
  const query = useClusterSources();
  return (
    <Stack gap="sm">
      <ReloadButton onReload={() => query.refetch()} busy={query.isFetching && !query.isPending} />
      <CallState pending={query.isPending} error={query.error} />
      {query.data && (
        <List aria-label="Sources" listStyleType="none" spacing="xs">
          {query.data.sources.map((source) => {
            const address = sourceAddress(source);
            return (
              <List.Item key={address} aria-label={address}>
                <Text span fw={600}>
                  {address}
                </Text>{' '}
                <Text span>{`streams: ${source.stream_count}`}</Text>
                {sourceFilters(source).map((filter) => (
                  <Text key={filter} span c="dimmed">
                    {' '}
                    {filter}
                  </Text>
                ))}
              </List.Item>
            );
          })}
        </List>
      )}
    </Stack>
  );
}
