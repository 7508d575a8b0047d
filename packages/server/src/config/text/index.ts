/**
 * The text config file format (`sluice.conf`): an nginx-like grammar, described in docs/config.md.
 * parseConfigText reads a file into the JSON config and a document; serializeConfig writes a
 * config back, keeping the operator's comments and layout where the config did not change;
 * serializeConfigWithDocument does the same and returns the document of the new text, for the
 * next edit (an edit costs what it changes: see top-merge.ts).
 */
export { ConfigSyntaxError } from './errors.js';
export type { ConfigDocument } from './document.js';
export { locatePath } from './locate.js';
export { parseConfigText, serializeConfig, serializeConfigWithDocument } from './serializer.js';
export type { ItemChanges } from './splice.js';
export { revisionOf } from './revision.js';
