/**
 * The text config file format (`sluice.conf`): an nginx-like grammar, described in docs/config.md.
 * parseConfigText reads a file into the JSON config and a document; serializeConfig writes a
 * config back, keeping the operator's comments and layout where the config did not change.
 */
export { ConfigSyntaxError } from './errors.js';
export type { ConfigDocument } from './document.js';
export { parseConfigText, serializeConfig, serializeConfigWithDocument } from './serializer.js';
