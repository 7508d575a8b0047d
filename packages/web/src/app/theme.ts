import { createTheme, type CSSVariablesResolver, DEFAULT_THEME } from '@mantine/core';
import { readableOn } from './contrast.js';

/** WCAG 2 AA: body text 4.5:1 against what it stands on (issue 17: axe-core, 0 serious). */
const TEXT_RATIO = 4.5;

const PRIMARY = 'teal';
const WHITE = '#ffffff';
const shades = DEFAULT_THEME.colors;

/**
 * What coloured text stands on across the console: the page, table headers and mirror rows
 * (gray-0), hovered rows (gray-1) and the selected row or active menu entry (primary light).
 */
const TEXT_BACKGROUNDS = [WHITE, shades.gray[0], shades.gray[1], shades[PRIMARY][1]];

/**
 * Mantine's light palette with each colour's text shades darkened just enough to read: its text
 * and links, the white label of a filled button, the label of a light badge or alert on its tint
 * (and of a subtle button on the page). The tints, borders and layout stay as Mantine draws them.
 */
function readableColorVariables(): Record<string, string> {
  const variables: Record<string, string> = {};
  for (const [name, palette] of Object.entries(shades)) {
    const text = readableOn(palette[6], TEXT_BACKGROUNDS, TEXT_RATIO);
    const filled = readableOn(palette[6], [WHITE], TEXT_RATIO);
    variables[`--mantine-color-${name}-text`] = text;
    variables[`--mantine-color-${name}-filled`] = filled;
    variables[`--mantine-color-${name}-filled-hover`] = readableOn(filled, [WHITE], TEXT_RATIO + 1);
    variables[`--mantine-color-${name}-outline`] = filled;
    variables[`--mantine-color-${name}-light-color`] = readableOn(
      palette[9],
      [WHITE, shades.gray[0], palette[1], palette[2]],
      TEXT_RATIO,
    );
  }
  return variables;
}

const readable = readableColorVariables();

const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    ...readable,
    '--mantine-color-anchor': `var(--mantine-color-${PRIMARY}-text)`,
    '--mantine-color-error': 'var(--mantine-color-red-text)',
    // Helper text and descriptions: Mantine's gray-6 reads at 3.3:1 on white.
    '--mantine-color-dimmed': readableOn(shades.gray[6], TEXT_BACKGROUNDS, TEXT_RATIO),
  },
  dark: {},
});

export const theme = createTheme({ primaryColor: PRIMARY });
export { cssVariablesResolver };
