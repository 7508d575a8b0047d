/**
 * Trivia is the text between directives: blank lines, comments and indentation. The text before a
 * directive splits in two at its last blank line: what is above it (`detached`, e.g. a section
 * heading comment) stays where it is in the file; what is below it (`attached`: the comment lines
 * right above the directive) belongs to the directive and moves or goes with it.
 */
export function splitLeading(leading: string, atLineStart: boolean): { detached: string; attached: string } {
  const lines = leading.split('\n');
  let cut = -1;
  // The last piece is the indentation before the name, not a line; the first piece is only a whole
  // line when the leading text starts at the start of a line.
  for (let k = 0; k < lines.length - 1; k++) {
    if ((k > 0 || atLineStart) && (lines[k] as string).trim() === '') cut = k;
  }
  if (cut < 0) return { detached: '', attached: leading };
  return { detached: `${lines.slice(0, cut + 1).join('\n')}\n`, attached: lines.slice(cut + 1).join('\n') };
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
