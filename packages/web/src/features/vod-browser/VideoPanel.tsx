import { Anchor, Group, Stack, Text, Title } from '@mantine/core';
import { fileOutputUrls } from '@sluice/api';
import { useAdminToken, withAdminToken } from '../auth/admin-token.js';
import { HlsVideo } from '../../components/HlsVideo.js';

/** Spec 002 §2: the links beside the browser's player (the file page adds the preview frame). */
const BROWSER_LINKS = new Set(['HLS', 'DASH', 'MPEG-TS', 'MP4']);

/**
 * The open video beside the list (spec 002 §2): a player of its HLS, with the admin token the
 * console's other players use, and the output links per protocol (shown without the token).
 * `fileName`: PREFIX/RELATIVE/PATH.
 */
export function VideoPanel({ fileName }: { fileName: string }) {
  const token = useAdminToken();
  const playlist = fileOutputUrls(fileName, '').find((link) => link.label === 'HLS')?.url ?? '';
  const links = fileOutputUrls(fileName, window.location.origin).filter((link) =>
    BROWSER_LINKS.has(link.label),
  );
  return (
    <Stack gap="xs" component="section" aria-label={`video ${fileName}`} w={480}>
      <Title order={4}>{fileName.split('/').at(-1)}</Title>
      <HlsVideo src={withAdminToken(playlist, token)} />
      <Stack gap={2} aria-label="output links">
        {links.map(({ label, url }) => (
          <Group key={label} gap="xs" wrap="nowrap">
            <Text size="sm" w={70}>
              {label}
            </Text>
            <Anchor
              href={url}
              target="_blank"
              rel="noreferrer"
              size="sm"
              aria-label={`${label} link`}
              style={{ wordBreak: 'break-all' }}
            >
              {url}
            </Anchor>
          </Group>
        ))}
      </Stack>
    </Stack>
  );
}
