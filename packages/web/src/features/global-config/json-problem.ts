/** Where and why a file is not JSON: 1-based line and column, and the parser's reason. */
export interface JsonProblem {
  line: number;
  column: number;
  reason: string;
}

/** 1-based line and column of a character offset of `text`. */
export function lineColumnAt(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const lineStart = before.lastIndexOf('\n') + 1;
  return { line: before.split('\n').length, column: before.length - lineStart + 1 };
}

/**
 * Why JSON.parse refuses `text`, with the line and column: its messages give a character
 * position ("… in JSON at position 16", newer V8 adds "(line 3 column 6)"), which tells an
 * operator nothing in a file of a thousand lines. Undefined when the text parses.
 */
export function jsonProblem(text: string): JsonProblem | undefined {
  try {
    JSON.parse(text);
    return undefined;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const reason = message.replace(/,? (?:in JSON )?at position \d+.*$/s, '').replace(/^JSON\.parse: /, '');
    const lineColumn = /\(line (\d+) column (\d+)\)/.exec(message);
    if (lineColumn) return { line: Number(lineColumn[1]), column: Number(lineColumn[2]), reason };
    const position = /at position (\d+)/.exec(message);
    // "Unexpected end of JSON input" names no position: the text ended too soon.
    const offset = position ? Number(position[1]) : text.length;
    return { ...lineColumnAt(text, offset), reason };
  }
}

/** The message Upload config shows for a file that is not JSON. */
export const jsonProblemText = (name: string, p: JsonProblem): string =>
  `${name} is not valid JSON: line ${p.line}, column ${p.column}: ${p.reason}`;
