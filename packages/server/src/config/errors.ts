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
