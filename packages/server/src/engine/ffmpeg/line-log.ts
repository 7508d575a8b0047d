/**
 * A child's stderr as lines, bounded. ffmpeg ends progress lines with `\r` and messages with `\n`,
 * so both end a line; a partial line waits for the next chunk, but never grows past `maxLineChars`
 * (a child writing without newlines must not grow memory).
 */
export class LineLog {
  private readonly lines: string[] = [];
  private partial = '';

  constructor(
    private readonly maxLines = 200,
    private readonly onLine?: (line: string) => void,
    private readonly maxLineChars = 4096,
    /** Takes lines meant for a reader of their own (ffmpeg -progress): true keeps them out of the log. */
    private readonly divert?: (line: string) => boolean,
  ) {}

  write(chunk: Buffer | string): void {
    const text = this.partial + chunk.toString();
    const parts = text.split(/[\r\n]/);
    this.partial = parts.pop() ?? '';
    for (const part of parts) this.add(part);
    if (this.partial.length > this.maxLineChars) {
      this.add(this.partial.slice(0, this.maxLineChars));
      this.partial = '';
    }
  }

  /** Ends the pending partial line (the child exited). */
  flush(): void {
    if (this.partial) this.add(this.partial);
    this.partial = '';
  }

  /** Adds a line written by the supervisor itself (a state change, a kill reason). */
  note(line: string): void {
    this.add(line);
  }

  get all(): readonly string[] {
    return this.lines;
  }

  get last(): string | undefined {
    return this.lines[this.lines.length - 1];
  }

  private add(raw: string): void {
    const line = raw.trimEnd();
    if (!line || this.divert?.(line)) return;
    this.lines.push(line);
    if (this.lines.length > this.maxLines) this.lines.splice(0, this.lines.length - this.maxLines);
    this.onLine?.(line);
  }
}
