import { ADMIN, expect, test } from './fixtures.js';
import { ConsoleShell } from './pages/console-shell.js';
import { LoginPage } from './pages/login-page.js';
import { expectNoHorizontalOverflow, expectWithinScreen, MIN_TAP_PX, PHONE } from './pages/phone.js';

/**
 * The top menu (issue 17): on a phone it folds behind a menu button that opens it, with Logout in
 * reach; an open item's page has a "back to list" a thumb can hit; on any screen its links wear the
 * theme's colours, not the browser's link blue and purple, with the current page marked.
 */

/** Chromium's own colours for a link and a visited link. */
const BROWSER_LINK_COLOURS = ['rgb(0, 0, 238)', 'rgb(85, 26, 139)'];

test('on a phone the menu button opens the top menu; an entry and Logout can be tapped', async ({
  page,
  server,
}) => {
  await page.setViewportSize(PHONE);
  // Logged in through the form: a remembered login would be put back by its init script on reload.
  const login = new LoginPage(page);
  await page.goto(`${server.url}/admin`);
  await login.logIn(ADMIN.login, ADMIN.password);
  const toggle = page.getByRole('button', { name: 'Menu' });
  const menu = page.getByRole('navigation', { name: 'main menu' });
  await expectWithinScreen(toggle);
  expect((await toggle.boundingBox())!.height, 'a thumb-sized menu button').toBeGreaterThanOrEqual(
    MIN_TAP_PX,
  );
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(menu, 'folded away until asked for').toBeHidden();

  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  const links = menu.getByRole('link');
  await expect(links.first()).toBeVisible();
  for (const link of await links.all()) {
    await expectWithinScreen(link);
    expect((await link.boundingBox())!.height, 'a thumb-sized menu entry').toBeGreaterThanOrEqual(MIN_TAP_PX);
  }
  const logout = page.getByRole('button', { name: 'Logout' });
  await expectWithinScreen(logout);
  expect((await logout.boundingBox())!.height, 'a thumb-sized Logout').toBeGreaterThanOrEqual(MIN_TAP_PX);
  await expectNoHorizontalOverflow(page, 'the open menu');

  await menu.getByRole('link', { name: 'Config', exact: true }).click();
  await expect(page.getByLabel('HTTP ports', { exact: true })).toBeVisible();
  await expect(toggle, 'the menu folds once an entry is chosen').toHaveAttribute('aria-expanded', 'false');
  await expect(menu).toBeHidden();

  await logout.click();
  await expect(login.form).toBeVisible();
});

test('on a phone the menu works from the keyboard: Enter opens it, Tab reaches its links, Escape closes it', async ({
  page,
  server,
}) => {
  await page.setViewportSize(PHONE);
  await new ConsoleShell(page, server.url).rememberLogin();
  await page.goto(`${server.url}/admin`);
  const toggle = page.getByRole('button', { name: 'Menu' });
  const menu = page.getByRole('navigation', { name: 'main menu' });
  await toggle.focus();
  await page.keyboard.press('Enter');
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await page.keyboard.press('Tab');
  await expect(menu.getByRole('link', { name: 'Media', exact: true })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(toggle).toBeFocused();
});

test('on a phone an open item takes the screen and "back to list" brings the list back', async ({
  page,
  server,
}) => {
  await page.setViewportSize(PHONE);
  await new ConsoleShell(page, server.url).rememberLogin();
  await page.goto(`${server.url}/admin`);
  await page.getByRole('textbox', { name: 'Name' }).first().fill('demo');
  await page.getByRole('textbox', { name: 'Source URL' }).fill('udp://239.0.1.9:1234');
  await page.getByRole('button', { name: 'Create' }).first().click();
  const streams = page.getByRole('table', { name: 'Streams' });
  await streams.getByRole('link', { name: 'demo', exact: true }).click();
  const tabs = page.getByRole('navigation', { name: 'stream tabs' });
  await expect(tabs).toBeVisible();
  await expect(streams, 'the list makes room for the item').toBeHidden();
  expect((await tabs.boundingBox())!.width).toBeGreaterThanOrEqual(300);

  const back = page.getByRole('link', { name: 'back to list' });
  expect((await back.boundingBox())!.height, 'a thumb-sized way back').toBeGreaterThanOrEqual(MIN_TAP_PX);
  await back.click();
  await expect(streams.getByRole('link', { name: 'demo', exact: true })).toBeVisible();
  await expectNoHorizontalOverflow(page, 'the media list');
});

for (const screen of [
  { name: 'desktop', size: { width: 1280, height: 800 } },
  { name: 'phone', size: PHONE },
]) {
  test(`on a ${screen.name} the top menu wears the theme's colours, the current page marked, a focus ring on Tab`, async ({
    page,
    server,
  }) => {
    await page.setViewportSize(screen.size);
    await new ConsoleShell(page, server.url).rememberLogin();
    await page.goto(`${server.url}/admin/config`);
    await expect(page.getByLabel('HTTP ports', { exact: true })).toBeVisible();
    if (screen.name === 'phone') await page.getByRole('button', { name: 'Menu' }).click();
    const menu = page.getByRole('navigation', { name: 'main menu' });
    const style = (name: string) =>
      menu.getByRole('link', { name, exact: true }).evaluate((el) => {
        const css = getComputedStyle(el);
        const label = getComputedStyle(el.querySelector('span') ?? el);
        return {
          colour: label.color,
          linkColour: css.color,
          background: css.backgroundColor,
          outline: css.outlineStyle,
        };
      });
    const other = await style('Pulse');
    const current = await style('Config');
    for (const s of [other, current]) {
      expect(BROWSER_LINK_COLOURS, 'not the browser link colour').not.toContain(s.colour);
      expect(BROWSER_LINK_COLOURS, 'not the browser link colour').not.toContain(s.linkColour);
    }
    await expect(menu.getByRole('link', { name: 'Config', exact: true })).toHaveAttribute(
      'aria-current',
      'page',
    );
    expect(current.background, 'the current page stands out').not.toBe(other.background);

    await menu.getByRole('link', { name: 'Media', exact: true }).focus();
    await page.keyboard.press('Tab');
    await expect(menu.getByRole('link', { name: 'Pulse', exact: true })).toBeFocused();
    expect((await style('Pulse')).outline, 'a visible focus ring').not.toBe('none');
  });
}

test('on a desktop the menu stays a row of links beside the brand, no menu button, the list beside an open item', async ({
  page,
  server,
}, testInfo) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await new ConsoleShell(page, server.url).rememberLogin();
  await page.goto(`${server.url}/admin`);
  const menu = page.getByRole('navigation', { name: 'main menu' });
  await expect(menu).toBeVisible();
  await expect(page.getByRole('button', { name: 'Menu' })).toBeHidden();
  const tops = await Promise.all(
    (await menu.getByRole('link').all()).map(async (l) => (await l.boundingBox())!.y),
  );
  expect(new Set(tops).size, 'one row of links').toBe(1);
  const logout = (await page.getByRole('button', { name: 'Logout' }).boundingBox())!;
  expect(logout.x + logout.width, 'Logout at the right end').toBeGreaterThan(1200);

  await page.getByRole('textbox', { name: 'Name' }).first().fill('demo');
  await page.getByRole('textbox', { name: 'Source URL' }).fill('udp://239.0.1.9:1234');
  await page.getByRole('button', { name: 'Create' }).first().click();
  const streams = page.getByRole('table', { name: 'Streams' });
  await streams.getByRole('link', { name: 'demo', exact: true }).click();
  await expect(page.getByRole('navigation', { name: 'stream tabs' })).toBeVisible();
  await expect(streams, 'the list stays beside the item').toBeVisible();
  const path = testInfo.outputPath('stream-page-1280px.png');
  await page.screenshot({ path });
  await testInfo.attach('stream page at 1280 px', { path, contentType: 'image/png' });
});
