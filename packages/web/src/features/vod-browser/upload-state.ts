export interface FileProgress {
  name: string;
  percent: number;
}

/**
 * Spec 002 §4 Upload: idle, running with progress, success or error. The bars stay drawn after
 * the end (full after success, where they stopped after a failure) until the form resets.
 */
export type UploadState =
  { phase: 'idle' } | { phase: 'running' | 'success' | 'error'; files: FileProgress[] };
