import { Anchor, Button, Group, Progress, Stack, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { EditOnly } from '../../components/EditOnly.js';
import {
  COMMENT_MIN_CHARS,
  downloadBundle,
  DESCRIPTION_REQUIRED,
  NOT_RESPONDING,
  SERVER_ERROR,
  SUBMITTED,
} from './support-api.js';
import type { DebugUpload } from './use-debug-upload.js';

/** The outcome line: the spec's words, the ticket to give support, or where the bundle is kept. */
function Outcome({ upload }: { upload: DebugUpload }) {
  const { result } = upload;
  const download = result?.kind === 'failed' ? result.download : undefined;
  if (upload.late) return <Text c="orange">{NOT_RESPONDING}</Text>;
  if (!result) return null;
  if (result.kind === 'ticket')
    return (
      <Stack gap={2} aria-label="Upload result">
        <Text fw={600}>{SUBMITTED}</Text>
        <Text>
          Give this id to support: <strong data-testid="support-ticket">{result.ticket}</strong>
        </Text>
      </Stack>
    );
  if (result.kind === 'download')
    return (
      <Text aria-label="Upload result">
        No support URL is set (support_url in the config): the bundle was downloaded instead.{' '}
        <Anchor component="button" onClick={() => void downloadBundle(result.download)}>
          Download it again
        </Anchor>
      </Text>
    );
  return (
    <Stack gap={2} aria-label="Upload result">
      <Text c="red" fw={600}>
        {SERVER_ERROR}
      </Text>
      {download && (
        <Text>
          The bundle is kept:{' '}
          <Anchor component="button" onClick={() => void downloadBundle(download)}>
            Download the diagnostics bundle
          </Anchor>
        </Text>
      )}
    </Stack>
  );
}

/** Spec 002 §2 Log upload: the description box, Submit and the progress bar. */
export function DebugUploadForm({ upload }: { upload: DebugUpload }) {
  const [comment, setComment] = useState('');
  const [error, setError] = useState<string>();
  const submit = () => {
    if (comment.trim().length < COMMENT_MIN_CHARS) return setError(DESCRIPTION_REQUIRED);
    setError(undefined);
    void upload.send(comment.trim());
  };
  return (
    <Stack gap="sm" component="section" aria-label="Upload debug data">
      <Textarea
        label="Description"
        description="Describe the problem; give the ticket number if you already have one."
        autosize
        minRows={3}
        value={comment}
        error={error}
        onChange={(event) => {
          setComment(event.currentTarget.value);
          setError(undefined);
        }}
      />
      <EditOnly>
        <Group>
          <Button onClick={submit} loading={upload.running}>
            Submit
          </Button>
        </Group>
      </EditOnly>
      {(upload.running || upload.result) && (
        <Progress value={upload.progress} aria-label="Upload progress" transitionDuration={200} />
      )}
      <Outcome upload={upload} />
    </Stack>
  );
}
