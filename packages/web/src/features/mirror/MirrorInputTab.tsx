import { Stack, Text } from '@mantine/core';
import { TextField } from '../global-config/global-fields.js';
import { ItemForm } from '../item-page/ItemForm.js';
import { MirrorUrlList } from './MirrorUrlList.js';
import { useMirrorBase } from './use-mirror.js';

/** Spec 001 §2 Mirror item input: the origin urls and the cluster key. */
export function MirrorInputTab() {
  const { base } = useMirrorBase();
  return (
    <ItemForm base={base}>
      <MirrorUrlList base={base} />
      <Stack gap={2}>
        <TextField path={[...base, 'cluster_key']} label="Cluster key" />
        <Text size="xs" c="dimmed">
          Remote server may require a cluster authorization key
        </Text>
      </Stack>
    </ItemForm>
  );
}
