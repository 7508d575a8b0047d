import { Input } from '@mantine/core';
import { useEffect, useId, useMemo, useRef } from 'react';
import { gutterText, lineCount, lineRange } from './text-lines.js';

/** One line of text in pixels: the gutter and the textarea share it, so numbers stay beside their lines. */
const LINE_PX = 20;
const PAD_PX = 8;
/** The box grows with the text between these many lines, then scrolls (as the autosized field did). */
const MIN_ROWS = 16;
const MAX_ROWS = 40;

const mono = {
  fontFamily: 'var(--mantine-font-family-monospace)',
  fontSize: 13,
  lineHeight: `${LINE_PX}px`,
} as const;

interface LineNumberedTextareaProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** A line to mark in the gutter (the error's). */
  errorLine?: number | undefined;
  /** Each new object scrolls to its line and selects it: set it once per error shown. */
  jumpTo?: { line?: number | undefined } | undefined;
}

/**
 * A plain textarea with line numbers beside it (a gutter scrolled with it) and a jump to a line:
 * the config editor's error names a line, and this shows it. Lines never wrap, so each number
 * stands beside its line; no editor library, for a text of 20,000 streams stays a textarea.
 */
export function LineNumberedTextarea({
  label,
  value,
  onChange,
  errorLine,
  jumpTo,
}: LineNumberedTextareaProps) {
  const id = useId();
  const area = useRef<HTMLTextAreaElement>(null);
  const gutter = useRef<HTMLDivElement>(null);
  const lines = lineCount(value);
  const numbers = useMemo(() => gutterText(lines), [lines]);
  const rows = Math.min(MAX_ROWS, Math.max(MIN_ROWS, lines));
  const follow = () => {
    if (area.current && gutter.current) gutter.current.scrollTop = area.current.scrollTop;
  };

  useEffect(() => {
    const el = area.current;
    const line = jumpTo?.line;
    if (!el || line === undefined) return;
    const range = lineRange(el.value, line);
    if (!range) return;
    el.scrollIntoView({ block: 'nearest' });
    el.focus({ preventScroll: true });
    el.setSelectionRange(range.start, range.end);
    // The line a third of the way down, with the lines before it in sight.
    el.scrollTop = Math.max(0, (line - 1) * LINE_PX - el.clientHeight / 3);
    el.scrollLeft = 0;
    follow();
  }, [jumpTo]);

  return (
    <Input.Wrapper label={label} labelProps={{ htmlFor: id }}>
      <div
        style={{
          display: 'flex',
          border: '1px solid var(--mantine-color-gray-4)',
          borderRadius: 'var(--mantine-radius-sm)',
          overflow: 'hidden',
        }}
      >
        <div
          ref={gutter}
          aria-hidden="true"
          data-testid="config-line-numbers"
          style={{
            ...mono,
            position: 'relative',
            overflow: 'hidden',
            flex: 'none',
            height: rows * LINE_PX + 2 * PAD_PX,
            padding: `${PAD_PX}px 8px`,
            textAlign: 'right',
            userSelect: 'none',
            color: 'var(--mantine-color-gray-7)',
            background: 'var(--mantine-color-gray-0)',
            borderRight: '1px solid var(--mantine-color-gray-3)',
          }}
        >
          {/* The room a horizontal scrollbar takes below the last line, so the gutter scrolls as far. */}
          <pre style={{ ...mono, margin: 0, paddingBottom: 3 * LINE_PX }}>{numbers}</pre>
          {errorLine !== undefined && errorLine <= lines && (
            <div
              data-testid="config-error-line"
              style={{
                ...mono,
                position: 'absolute',
                left: 0,
                right: 0,
                top: PAD_PX + (errorLine - 1) * LINE_PX,
                padding: '0 8px',
                color: 'var(--mantine-color-red-9)',
                background: 'var(--mantine-color-red-1)',
                fontWeight: 700,
              }}
            >
              {errorLine}
            </div>
          )}
        </div>
        <textarea
          id={id}
          ref={area}
          value={value}
          onChange={(event) => onChange(event.currentTarget.value)}
          onScroll={follow}
          wrap="off"
          spellCheck={false}
          style={{
            ...mono,
            flex: 1,
            minWidth: 0,
            height: rows * LINE_PX + 2 * PAD_PX,
            padding: `${PAD_PX}px 10px`,
            border: 0,
            outlineOffset: -2,
            resize: 'none',
            whiteSpace: 'pre',
            overflow: 'auto',
            color: 'inherit',
            background: 'transparent',
          }}
        />
      </div>
    </Input.Wrapper>
  );
}
