import { Stack, Title } from '@mantine/core';
import { memo } from 'react';
import { isMirrorKey } from '../mirror/live-mirror.js';
import { EditOnly } from '../../components/EditOnly.js';
import { MirrorAddForm } from './MirrorAddForm.js';
import { MirrorBlock } from './MirrorBlock.js';
import { useOrderedKeys } from './use-location-names.js';

/** Origin servers (spec 000 §2): each mirror with its servers' health and the streams it mirrors. */
export const OriginServersSection = memo(function OriginServersSection({
  selectedMirror,
  selectedStream,
  compact,
}: {
  selectedMirror: string | undefined;
  selectedStream: string | undefined;
  compact: boolean;
}) {
  const positions = useOrderedKeys(['sources']).filter(isMirrorKey);
  return (
    <Stack gap="sm">
      <Title order={2}>Origin servers</Title>
      {!compact && (
        <EditOnly>
          <MirrorAddForm />
        </EditOnly>
      )}
      <div role="table" aria-label="Origin servers">
        {positions.map((position) => (
          <MirrorBlock
            key={position}
            position={position}
            selectedMirror={selectedMirror}
            selectedStream={selectedStream}
            compact={compact}
          />
        ))}
      </div>
    </Stack>
  );
});
