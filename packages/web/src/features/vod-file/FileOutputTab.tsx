import { Anchor, Stack, Table } from '@mantine/core';
import { fileOutputUrls, protocolUrlState } from '@sluice/api';
import { useView } from '../../api/use-live.js';
import { useMediaName } from '../item-page/use-media-name.js';
import { useFilePrefix } from './live-file.js';

/**
 * Spec 002 §2 File output: the file's output links per protocol. A protocol the VOD switches off is
 * left out, and the MP4 itself when direct download is disabled.
 */
export function FileOutputTab() {
  const name = useMediaName();
  const prefix = useFilePrefix(name) ?? '';
  const protocols = useView<Record<string, boolean>>(['vods', prefix, 'protocols']);
  const download = useView<boolean>(['vods', prefix, 'download']);
  const links = fileOutputUrls(name, window.location.origin).filter((link) =>
    link.protocol
      ? !protocolUrlState(protocols, link.protocol).disabled
      : link.label !== 'MP4' || download !== false,
  );
  return (
    <Stack gap="xs" maw={900}>
      <Table aria-label="output links">
        <Table.Tbody>
          {links.map((link) => (
            <Table.Tr key={link.label} aria-label={link.label}>
              <Table.Th w={100}>{link.label}</Table.Th>
              <Table.Td>
                <Anchor
                  href={link.url}
                  target="_blank"
                  rel="noreferrer"
                  size="sm"
                  style={{ wordBreak: 'break-all' }}
                >
                  {link.url}
                </Anchor>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}
