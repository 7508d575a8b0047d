import { useServerInfo } from './server-info.js';

/**
 * Whether this session may change anything: GET /server answers `access` for the caller's
 * credentials (spec 000 §6: view_auth reads only). The server refuses a view session's changes
 * anyway (403); the console offers none, so nobody edits a form that could never be saved.
 * An answer without `access` (an older server) keeps the console as it was: editable.
 */
export const useCanEdit = (): boolean => useServerInfo().data?.access !== 'view';
