import { expect, type Locator, type Page, type TestInfo } from '@playwright/test';

/** The phone the console is checked on (issue 17): a 390 px wide portrait screen. */
export const PHONE = { width: 390, height: 844 };

/** A tap target shorter than this is hard to hit with a thumb. */
export const MIN_TAP_PX = 40;

/** Attaches a full-page screenshot to the test's report (and its output dir), named for the page. */
export async function attachScreenshot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const path = testInfo.outputPath(`${name.replaceAll(/[^a-z0-9]+/gi, '-')}-${PHONE.width}px.png`);
  await page.screenshot({ path, fullPage: true });
  await testInfo.attach(`${name} at ${PHONE.width} px`, { path, contentType: 'image/png' });
}

/**
 * Nothing on the page reaches past the right edge of the screen: the page never scrolls sideways
 * (scrollWidth), and nothing is cut off at the edge either (the fixed header does not widen the
 * page, so it is checked element by element). Content inside a box that scrolls or clips by itself
 * (a wide table in its own scroller) is fine. The outermost elements sticking out are named.
 */
export async function expectNoHorizontalOverflow(page: Page, what: string): Promise<void> {
  const overflow = await page.evaluate(() => {
    const width = window.innerWidth;
    const clips = (el: Element) => getComputedStyle(el).overflowX !== 'visible';
    const sticksOut = (el: Element) => {
      const rect = el.getBoundingClientRect();
      if (rect.width === 0 || rect.right <= width + 1) return false;
      for (let up = el.parentElement; up; up = up.parentElement) {
        if (clips(up) && up !== document.body && up !== document.documentElement) return false;
      }
      return true;
    };
    const out = [...document.querySelectorAll('body *')].filter(sticksOut);
    const outermost = out.filter((el) => !out.includes(el.parentElement as Element));
    const named = outermost.slice(0, 5).map((el) => {
      const label = el.getAttribute('aria-label') ?? el.textContent?.slice(0, 40) ?? '';
      return `<${el.tagName.toLowerCase()} class="${el.className}"> "${label}" right=${Math.round(el.getBoundingClientRect().right)}`;
    });
    return { scrollWidth: document.documentElement.scrollWidth, width, named };
  });
  const message = `${what}: sticking out past ${overflow.width} px: ${overflow.named.join('; ')}`;
  expect(overflow.named, message).toEqual([]);
  expect(overflow.scrollWidth, message).toBeLessThanOrEqual(overflow.width);
}

/** The control is drawn and lies wholly within the screen's width. */
export async function expectWithinScreen(control: Locator): Promise<void> {
  await expect(control).toBeVisible();
  await control.scrollIntoViewIfNeeded();
  const box = await control.boundingBox();
  expect(box, 'a box on the page').not.toBeNull();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);
}
