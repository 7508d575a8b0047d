/** Spec 002 §4 Upload: idle, running with progress, success or error. */
export type UploadState =
  | { phase: 'idle' }
  | { phase: 'running'; files: { name: string; percent: number }[] }
  | { phase: 'success' }
  | { phase: 'error' };
