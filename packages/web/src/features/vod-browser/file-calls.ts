import { z } from 'zod';
import { API_BASE, ApiError, request, requestJson } from '../../api/http-client.js';
import type { FileEntry } from './file-order.js';

/** GET list_files answer (COMMON16 Files API). */
const fileListing = z.looseObject({
  files: z.array(
    z.looseObject({
      name: z.string(),
      type: z.enum(['file', 'directory']),
      prefix: z.string().optional(),
      size: z.number().optional(),
      mtime: z.number().optional(),
    }),
  ),
});

/** One source path of a VOD: its prefix and its number in the VOD's urls (the page's tree/{number}). */
export interface SourcePath {
  prefix: string;
  number: string;
}

/** GET list_files?prefix&path&subpath (spec 002 §7): the directory's entries. */
export async function listFiles(source: SourcePath, subpath: string): Promise<FileEntry[]> {
  const query = new URLSearchParams({ prefix: source.prefix, path: source.number, subpath });
  return (await requestJson(`/list_files?${query}`, fileListing)).files;
}

/** POST remove_file?prefix&dir&subpath (spec 002 §7): `relative` is the entry's path from the root. */
export async function removeFile(source: SourcePath, relative: string): Promise<void> {
  const query = new URLSearchParams({ prefix: source.prefix, dir: source.number, subpath: relative });
  await request(`${API_BASE}/remove_file?${query}`, { method: 'POST' });
}

/** POST make_dir?prefix&path&subpath: resolves 'taken' on 409 (the name exists), throws other failures. */
export async function makeDir(source: SourcePath, relative: string): Promise<'made' | 'taken'> {
  const query = new URLSearchParams({ prefix: source.prefix, path: source.number, subpath: relative });
  try {
    await request(`${API_BASE}/make_dir?${query}`, { method: 'POST' });
    return 'made';
  } catch (error) {
    if (error instanceof ApiError && error.status === 409) return 'taken';
    throw error;
  }
}
