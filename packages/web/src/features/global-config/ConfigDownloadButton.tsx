import { Button } from '@mantine/core';
import { useState } from 'react';
import { readConfigText } from '../../api/config-calls.js';
import { downloadName } from './download-name.js';

/** Downloads GET read_config as host-timestamp.json (spec 000 §4, §7). */
export function ConfigDownloadButton({ onError }: { onError: (error: unknown) => void }) {
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      const text = await readConfigText();
      const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
      const link = document.createElement('a');
      link.href = url;
      link.download = downloadName(window.location.hostname, new Date());
      link.click();
      URL.revokeObjectURL(url);
    } catch (error) {
      onError(error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button variant="default" loading={busy} onClick={() => void download()}>
      Download config
    </Button>
  );
}
