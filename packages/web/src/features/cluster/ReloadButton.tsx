import { Button } from '@mantine/core';

/** Spec 002 §2: Ingest, Sources and the peer page reload their lists on demand. */
export function ReloadButton({ onReload, busy }: { onReload: () => unknown; busy: boolean }) {
  return (
    <Button variant="default" size="xs" w="fit-content" loading={busy} onClick={() => void onReload()}>
      Reload
    </Button>
  );
}
