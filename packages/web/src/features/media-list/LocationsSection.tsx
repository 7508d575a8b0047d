import { memo } from 'react';
import { Stack, Title } from '@mantine/core';
import { EditOnly } from '../../components/EditOnly.js';
import { LocationAddForm } from './LocationAddForm.js';
import { LocationsTable } from './LocationsTable.js';

/** Publishing locations (spec 000 §2): groups with the streams published into them. */
export const LocationsSection = memo(function LocationsSection({
  selected,
  compact,
}: {
  selected: string | undefined;
  compact: boolean;
}) {
  return (
    <Stack gap="sm">
      <Title order={2}>Publishing locations</Title>
      {!compact && (
        <EditOnly>
          <LocationAddForm />
        </EditOnly>
      )}
      <LocationsTable selected={selected} compact={compact} />
    </Stack>
  );
});
