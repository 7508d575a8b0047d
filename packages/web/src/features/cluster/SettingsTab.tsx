import { Button, Group, Stack, TextInput } from '@mantine/core';
import { useCanEdit } from '../../api/access.js';
import { useServerInfo } from '../../api/server-info.js';
import { useServerStats } from '../../api/use-live.js';
import { useSaveFlow } from '../../api/use-save-flow.js';
import { EditOnly } from '../../components/EditOnly.js';
import { ReadOnlyFields } from '../../components/ReadOnlyFields.js';
import { SaveStatus } from '../../components/SaveStatus.js';
import { ClusterKeyField } from './ClusterKeyField.js';
import { PeersField } from './PeersField.js';
import { usePeersAutosave } from './use-peers-autosave.js';

const KEY_KEYS = ['cluster_key'] as const;

/**
 * Spec 002 §2 Settings: this server's hostname (read-only), the cluster key and the peer list.
 * Peers save themselves after the 1 s debounce; Save sends the cluster key. Save's spinner turns
 * while either is being saved. View-only sessions never see the key (the server hides it too).
 */
export function SettingsTab() {
  const canEdit = useCanEdit();
  const stats = useServerStats();
  const info = useServerInfo();
  const hostname = stats?.hostname ?? info.data?.hostname ?? '';
  const peers = usePeersAutosave();
  const key = useSaveFlow({ keys: KEY_KEYS });
  const saving = peers.saving || key.saving;
  const save = () => {
    peers.flush();
    void key.save();
  };
  return (
    <Stack gap="md" maw={700}>
      <ReadOnlyFields>
        <Stack gap="md">
          <TextInput
            label="Hostname"
            description="How this peer should be referred from other flussonic peers"
            value={hostname}
            variant="filled"
            readOnly
          />
          {canEdit && <ClusterKeyField />}
          <PeersField onCommit={peers.commit} />
        </Stack>
      </ReadOnlyFields>
      <EditOnly>
        <Group gap="sm">
          <Button onClick={save} disabled={!key.canSave && !saving} loading={saving}>
            Save
          </Button>
          <SaveStatus status={peers.saving || peers.status.phase !== 'idle' ? peers.status : key.status} />
        </Group>
      </EditOnly>
    </Stack>
  );
}
