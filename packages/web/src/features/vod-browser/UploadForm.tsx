import { Button, Group, Progress, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { UPLOAD_COMPLETE, UPLOAD_FAILED } from './browser-constants.js';
import type { UploadTarget } from './upload-request.js';
import { useUpload } from './use-upload.js';

/**
 * Spec 002 §2 Upload: choose files, upload them into the directory shown; a progress bar per file
 * while running, then 'Upload complete.' or 'Something went wrong', and the form resets after 3 s.
 */
export function UploadForm({ target, onUploaded }: { target: UploadTarget; onUploaded: () => void }) {
  const { state, formKey, start } = useUpload(target, onUploaded);
  return <UploadFields key={formKey} state={state} onUpload={start} />;
}

function UploadFields({
  state,
  onUpload,
}: {
  state: ReturnType<typeof useUpload>['state'];
  onUpload: (files: File[]) => void;
}) {
  const [files, setFiles] = useState<File[]>([]);
  const busy = state.phase !== 'idle';
  return (
    <Stack gap="xs" component="form" aria-label="upload">
      <Group gap="sm">
        <input
          type="file"
          multiple
          aria-label="Files to upload"
          disabled={busy}
          onChange={(event) => setFiles([...(event.currentTarget.files ?? [])])}
        />
        <Button disabled={busy || files.length === 0} onClick={() => onUpload(files)}>
          Upload
        </Button>
      </Group>
      {state.phase !== 'idle' &&
        state.files.map((file) => (
          <Group key={file.name} gap="sm" wrap="nowrap">
            <Text size="sm" w={220} truncate>
              {file.name}
            </Text>
            <Progress value={file.percent} aria-label={`upload ${file.name}`} w={240} />
            <Text size="sm">{file.percent}%</Text>
          </Group>
        ))}
      {state.phase === 'success' && (
        <Text c="green" role="status">
          {UPLOAD_COMPLETE}
        </Text>
      )}
      {state.phase === 'error' && (
        <Text c="red" role="alert">
          {UPLOAD_FAILED}
        </Text>
      )}
    </Stack>
  );
}
