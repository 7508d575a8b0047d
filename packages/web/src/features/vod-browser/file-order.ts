/** One entry of GET /flussonic/api/list_files (COMMON16 Files API; spec 002 §3 Listing response). */
export interface FileEntry {
  name: string;
  type: 'file' | 'directory';
  prefix?: string | undefined;
  /** Bytes, files only. */
  size?: number | undefined;
  /** Unix seconds. */
  mtime?: number | undefined;
}

/** Spec 002 §5: the browser recognises these video types (by the name's extension). */
export const VIDEO_TYPES = ['mp4', 'flv', 'm4v', 'mov', 'mkv'] as const;

export type EntryKind = 'video' | 'new-directory' | 'directory' | 'other';

/** Spec 002 §2 list order: videos, then newly created directories, then directories, then other files. */
const KIND_RANK: Record<EntryKind, number> = { video: 0, 'new-directory': 1, directory: 2, other: 3 };

export function isVideoName(name: string): boolean {
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return false;
  return (VIDEO_TYPES as readonly string[]).includes(name.slice(dot + 1).toLowerCase());
}

/** `created`: names of directories made on this page (they stay in their own group until it is left). */
export function kindOf(entry: FileEntry, created: ReadonlySet<string>): EntryKind {
  if (entry.type === 'directory') return created.has(entry.name) ? 'new-directory' : 'directory';
  return isVideoName(entry.name) ? 'video' : 'other';
}

/** The entries in the spec's order; within a group, by name (the server's order). */
export function orderEntries(
  entries: readonly FileEntry[],
  created: ReadonlySet<string>,
): { entry: FileEntry; kind: EntryKind }[] {
  return entries
    .map((entry) => ({ entry, kind: kindOf(entry, created) }))
    .sort(
      (a, b) =>
        KIND_RANK[a.kind] - KIND_RANK[b.kind] ||
        (a.entry.name < b.entry.name ? -1 : a.entry.name > b.entry.name ? 1 : 0),
    );
}
