/**
 * WCAG 2 colour contrast (https://www.w3.org/TR/WCAG21/#dfn-contrast-ratio) for the theme: the
 * console darkens Mantine's palette just enough for its text to read, keeping each colour's hue.
 */

type Rgb = [number, number, number];

function parseHex(hex: string): Rgb {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!m) throw new Error(`not a #rrggbb colour: ${hex}`);
  return [parseInt(m[1]!, 16), parseInt(m[2]!, 16), parseInt(m[3]!, 16)];
}

const toHex = (rgb: Rgb) => `#${rgb.map((c) => c.toString(16).padStart(2, '0')).join('')}`;

function relativeLuminance(hex: string): number {
  const [r, g, b] = parseHex(hex).map((c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The contrast ratio of two colours, 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/**
 * `color` darkened (each channel scaled toward black, so the hue stays) in 2 % steps until it
 * reaches `ratio` against every one of `backgrounds`; unchanged when it already does.
 */
export function readableOn(color: string, backgrounds: readonly string[], ratio: number): string {
  const rgb = parseHex(color);
  for (let step = 0; step <= 50; step++) {
    const candidate = toHex(rgb.map((c) => Math.round(c * (1 - step * 0.02))) as Rgb);
    if (backgrounds.every((bg) => contrastRatio(candidate, bg) >= ratio)) return candidate;
  }
  return '#000000';
}
