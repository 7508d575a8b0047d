import { EditOnly } from '../../components/EditOnly.js';
import { Anchor, Table, Text } from '@mantine/core';
import { Link, type To } from 'react-router';
import { formatBytes } from '../clients/session-format.js';
import type { EntryKind, FileEntry } from './file-order.js';
import { RemoveFileButton } from './RemoveFileButton.js';

export interface FileTableProps {
  rows: { entry: FileEntry; kind: EntryKind }[];
  /** The link into a directory. */
  directoryLink: (name: string) => To;
  /** The parent directory's link; undefined at the source path's root. */
  parentLink: To | undefined;
  openVideo: string | undefined;
  onToggleVideo: (name: string) => void;
  onRemove: (name: string) => Promise<void>;
}

/**
 * The directory's entries in the spec's order: a video opens or closes the player beside the list,
 * a directory is navigated into, anything else is only listed; each has its remove button.
 */
export function FileTable({
  rows,
  directoryLink,
  parentLink,
  openVideo,
  onToggleVideo,
  onRemove,
}: FileTableProps) {
  return (
    <Table aria-label="files" highlightOnHover>
      <Table.Tbody>
        {parentLink !== undefined && (
          <Table.Tr>
            <Table.Td colSpan={3}>
              <Anchor component={Link} to={parentLink} aria-label="parent directory">
                ..
              </Anchor>
            </Table.Td>
          </Table.Tr>
        )}
        {rows.map(({ entry, kind }) => (
          <Table.Tr key={entry.name} data-kind={kind} aria-selected={openVideo === entry.name}>
            <Table.Td>
              {kind === 'video' ? (
                <Anchor component="button" type="button" onClick={() => onToggleVideo(entry.name)}>
                  {entry.name}
                </Anchor>
              ) : kind === 'other' ? (
                <Text size="sm">{entry.name}</Text>
              ) : (
                <Anchor component={Link} to={directoryLink(entry.name)}>
                  {entry.name}/
                </Anchor>
              )}
            </Table.Td>
            <Table.Td>
              <Text size="sm" c="dimmed">
                {entry.type === 'file' && entry.size !== undefined ? formatBytes(entry.size) : ''}
              </Text>
            </Table.Td>
            <Table.Td>
              <EditOnly>
                <RemoveFileButton name={entry.name} onRemove={() => onRemove(entry.name)} />
              </EditOnly>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
