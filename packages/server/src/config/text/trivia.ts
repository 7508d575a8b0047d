/**
 * Trivia is the text between directives: blank lines, comments and indentation. The text before a
 * directive splits in two at its last blank line: what is above it (`detached`, e.g. a section
 * heading comment) stays where it is in the file; what is below it (`attached`: the comment lines
 * right above the directive) belongs to the directive and moves or goes with it.
 */
export function splitLeading(leading: string, atLineStart: boolean): { detached: string; attached: string } {
  // Scans back from the last line break: most leading texts are a blank line and a comment or two.
  let end = leading.lastIndexOf('\n');
  while (end >= 0) {
    const start = end === 0 ? 0 : leading.lastIndexOf('\n', end - 1) + 1;
    // The first piece is only a whole line when the leading text starts at the start of a line.
    if ((start > 0 || atLineStart) && isBlank(leading, start, end)) {
      return { detached: leading.slice(0, end + 1), attached: leading.slice(end + 1) };
    }
    end = start - 1;
  }
  return { detached: '', attached: leading };
}

/** Whether text[start, end) holds only whitespace (as String.prototype.trim counts it). */
function isBlank(text: string, start: number, end: number): boolean {
  for (let k = start; k < end; k++) {
    const c = text.charCodeAt(k);
    if (c === 32 || c === 9 || c === 13) continue;
    return text.slice(k, end).trim() === '';
  }
  return true;
}

/** The indentation of the line a directive starts on, when its leading text shows it. */
export function indentOf(leading: string, atLineStart: boolean): string | undefined {
  const nl = leading.lastIndexOf('\n');
  if (nl >= 0) return leading.slice(nl + 1);
  return atLineStart ? leading : undefined;
}

/** Trivia holds only whitespace and comments, so a `#` in it is a comment. */
export function hasComment(trivia: string): boolean {
  return trivia.includes('#');
}
