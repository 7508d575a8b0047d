import { Stack, Text, Title } from '@mantine/core';
import { DebugUploadForm } from './DebugUploadForm.js';
import { SshAccess } from './SshAccess.js';
import { useDebugUpload } from './use-debug-upload.js';

/** Spec 002 §2 "Log upload screen" (/admin/logupload): the debug upload and the support SSH access. */
export function LogUploadPage() {
  const upload = useDebugUpload();
  return (
    <Stack gap="md" maw={800} component="section" aria-label="Upload debug">
      <Title order={2}>Upload debug</Title>
      <Text>
        The server config (passwords and keys hidden), the server logs and the system stats will be uploaded
        to the support team.
      </Text>
      <Text>
        Describe the problem and give the ticket number if one exists. This is not a support request.
      </Text>
      <DebugUploadForm upload={upload} />
      <SshAccess
        onEnabled={(status) =>
          void upload.send(
            `SSH access enabled for support: ${status.host ?? ''} port ${status.remote_port ?? '?'} reaches this server.`,
          )
        }
      />
    </Stack>
  );
}
