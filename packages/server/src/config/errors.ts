/** A change the operator asked for that can't be made: answered 400 with this message; nothing changed. */
export class ConfigRejected extends Error {
  constructor(
    message: string,
    readonly line?: number,
    readonly column?: number,
  ) {
    super(message);
    this.name = 'ConfigRejected';
  }
}

/**
 * A save based on a revision (If-Match) the config has moved on from in a way that touches what
 * this save changes: someone else saved in between, and writing it would undo their change.
 * Answered 409 naming both revisions; nothing changed.
 */
export class ConfigStale extends Error {
  constructor(
    readonly currentRevision: string,
    readonly basedOn: string,
    readAgain = 'read it again (read_raw_config)',
  ) {
    super(
      `the config was changed by someone else since you read it (your edit is based on revision ${basedOn}, the config is now at revision ${currentRevision}): ${readAgain}, redo your edit and save; nothing was changed`,
    );
    this.name = 'ConfigStale';
  }
}
