import { API_BASE, CONSOLE_HEADERS } from '../../api/http-client.js';

export const UPLOAD_URL = `${API_BASE}/upload`;

export interface UploadTarget {
  /** The VOD prefix. */
  prefix: string;
  /** Which source path: its 0-based number (the page's tree/{number}). */
  path: string;
  /** The directory inside it, '' for its root. */
  subpath: string;
}

/** Each name percent-encoded ('/' kept between a path's names): the server decodes once (file-api.ts). */
const encodedPath = (path: string) => path.split('/').map(encodeURIComponent).join('/');

/**
 * Spec 002 §7 upload headers: X-Prefix, X-Path, X-Subpath, X-File-Sizes ('name:size' pairs joined
 * with '|', so the server can refuse more than the free disk space before reading), X-Requested-With
 * and Cache-Control: no-cache. Names and paths are percent-encoded: a header carries Latin-1 only,
 * and a name may hold ':' or '|'. X-Requested-With carries the console's value, the one the server's
 * guard asks of every cookie-authorised change (the spec names the header, not its value).
 */
export function uploadHeaders(
  target: UploadTarget,
  files: readonly { name: string; size: number }[],
): Record<string, string> {
  return {
    'X-Prefix': encodedPath(target.prefix),
    'X-Path': encodeURIComponent(target.path),
    'X-Subpath': encodedPath(target.subpath),
    'X-File-Sizes': files.map((f) => `${encodeURIComponent(f.name)}:${f.size}`).join('|'),
    'X-Requested-With': CONSOLE_HEADERS['x-requested-with'],
    'Cache-Control': 'no-cache',
  };
}

export interface UploadProgress {
  loadedBytes: number;
  totalBytes: number;
}

/**
 * POSTs the files as one multipart/form-data body with XMLHttpRequest, whose upload progress
 * events fetch does not give. Resolves on a 2xx answer; rejects with the answer's status otherwise.
 */
export function sendUpload(
  target: UploadTarget,
  files: readonly File[],
  onProgress: (progress: UploadProgress) => void,
): { done: Promise<void>; abort: () => void } {
  const xhr = new XMLHttpRequest();
  const done = new Promise<void>((resolve, reject) => {
    const form = new FormData();
    for (const file of files) form.append('file', file, file.name);
    xhr.open('POST', UPLOAD_URL);
    for (const [name, value] of Object.entries(uploadHeaders(target, files)))
      xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) =>
      onProgress({ loadedBytes: event.loaded, totalBytes: event.lengthComputable ? event.total : 0 });
    xhr.onload = () =>
      xhr.status >= 200 && xhr.status < 300
        ? resolve()
        : reject(new Error(`upload answered ${xhr.status}: ${xhr.responseText}`));
    xhr.onerror = () => reject(new Error('upload failed: the connection was lost'));
    xhr.onabort = () => reject(new Error('upload aborted'));
    xhr.send(form);
  });
  return { done, abort: () => xhr.abort() };
}
