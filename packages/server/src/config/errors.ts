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
 * save_raw_config with an If-Match revision the file no longer has: someone else saved in between,
 * and writing this text would undo their change. Answered 409; nothing changed.
 */
export class ConfigStale extends Error {
  constructor(readonly currentRevision: string) {
    super(
      'the config was changed by someone else since you read it: read it again (read_raw_config), redo your edit and save; nothing was changed',
    );
    this.name = 'ConfigStale';
  }
}
