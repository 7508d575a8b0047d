import { TextInput } from '@mantine/core';
import { useState } from 'react';
import { normalizeSubpath, shownPath } from './browser-paths.js';

/**
 * The current directory inside the source path (spec 002 §2 path field); a directory typed here
 * is opened on Enter. The page draws a new field for each directory, so the text starts from it.
 */
export function PathField({
  subpath,
  root,
  onOpen,
}: {
  subpath: string;
  /** The source path's directory on the server, shown as the field's description. */
  root: string | undefined;
  onOpen: (subpath: string) => void;
}) {
  const [text, setText] = useState(shownPath(subpath));
  return (
    <TextInput
      label="Path"
      aria-label="Path"
      description={root}
      value={text}
      onChange={(event) => setText(event.currentTarget.value)}
      onKeyDown={(event) => {
        if (event.key === 'Enter') onOpen(normalizeSubpath(text));
      }}
      onBlur={() => setText(shownPath(subpath))}
      w={420}
    />
  );
}
