/**
 * Interface preferences: the language lives in localStorage 'lang' (Chinese by default), the theme
 * in sessionStorage 'theme' (purple by default); both survive a reload.
 */
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { ACCOUNTS, login, useE2E } from './harness.ts';

const e2e = useE2E();

/** The colour the theme gives the product title in the header, as the user sees it. */
function titleColour(page: Page): Promise<string> {
  return page.getByTestId('product-title').evaluate((el) => getComputedStyle(el).color);
}

describe('preferences', () => {
  test('language and theme persist across reload', async () => {
    const page = await e2e.newPage();
    await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    const systemGroup = page.getByTestId('nav-group-/system');
    await systemGroup.getByText('系统管理').waitFor();
    expect(await page.evaluate(() => document.documentElement.dataset['appTheme'])).toBe('purple');
    const purple = await titleColour(page);

    await page.getByTestId('lang-switch').click();
    await systemGroup.getByText('System').waitFor();

    await page.getByTestId('theme-switch').click();
    await page.getByTestId('theme-option-green').click();
    await page.waitForFunction(() => document.documentElement.dataset['appTheme'] === 'green');
    const green = await titleColour(page);
    expect(green).not.toBe(purple);

    await page.reload();
    await systemGroup.getByText('System').waitFor();
    await page.getByTestId('user-display-name').waitFor();
    const after = await page.evaluate(() => ({
      lang: localStorage.getItem('lang'),
      htmlLang: document.documentElement.lang,
      theme: sessionStorage.getItem('theme'),
      appTheme: document.documentElement.dataset['appTheme'],
    }));
    expect(after).toEqual({ lang: 'en', htmlLang: 'en', theme: 'green', appTheme: 'green' });
    expect(await titleColour(page)).toBe(green);
    expect(await page.getByTestId('lang-switch').textContent()).toBe('中文');
  });
});
