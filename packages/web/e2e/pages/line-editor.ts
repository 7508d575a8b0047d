import type { Locator } from '@playwright/test';

/** The config editor's textarea as its line gutter sees it: scroll, selection, numbers. */
export class LineEditor {
  readonly gutter: Locator;
  readonly errorLine: Locator;

  constructor(
    readonly text: Locator,
    page: { getByTestId: (id: string) => Locator },
  ) {
    this.gutter = page.getByTestId('config-line-numbers');
    this.errorLine = page.getByTestId('config-error-line');
  }

  /** The text the textarea has selected. */
  selection(): Promise<string> {
    return this.text.evaluate((el: HTMLTextAreaElement) =>
      el.value.slice(el.selectionStart, el.selectionEnd),
    );
  }

  /** Whether line `line` (1-based) is within the textarea's visible rows. */
  lineInView(line: number): Promise<boolean> {
    return this.text.evaluate((el: HTMLTextAreaElement, n: number) => {
      const px = parseFloat(getComputedStyle(el).lineHeight);
      const top = (n - 1) * px;
      return top >= el.scrollTop && top + px <= el.scrollTop + el.clientHeight;
    }, line);
  }

  /** [textarea scrollTop, gutter scrollTop] */
  async scrollTops(): Promise<[number, number]> {
    return [await this.text.evaluate((el) => el.scrollTop), await this.gutter.evaluate((el) => el.scrollTop)];
  }
}
