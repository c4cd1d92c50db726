/**
 * What a visitor's first page downloads (issue 21): the landing page loads the small entry and the code that hydrates
 * the server's page (client/public-page.tsx), the sign-in pages the visitor's pages (client/visitor.tsx), never the app's chunk (client/app.tsx: router, shell, socket,
 * features), which loads only once the visitor signs in, or for a member, who sees the newsfeed at `/`.
 */
import { describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { TestSite } from '../support/site';
import { newContext, person, siteInBrowser } from '../support/browser';
import { registerMember } from '../support/http';

let site: TestSite;
let browser: Browser;

siteInBrowser({ RATE_LIMIT_AUTH_MAX: '1000' }, (started, chromium) => {
  site = started;
  browser = chromium;
});

/** The scripts of the site a page requests, by file name (hash left off: `app`, `visitor`, `socket`...). */
function scriptsOf(page: Page): Set<string> {
  const scripts = new Set<string>();
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    const chunk = path.match(/^\/assets\/(.+)-[\w-]{8}\.js$/u);
    if (chunk) scripts.add(chunk[1]!);
  });
  return scripts;
}

const APP_CODE = ['app', 'app-shell', 'socket', 'newsfeed-page', 'matchContext'];
const errorsOf = (page: Page) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  return errors;
};

describe('a visitor’s first page', () => {
  it('at / is the landing page without the app’s code', async () => {
    const context = await newContext(browser, site.url);
    const page = await context.newPage();
    const scripts = scriptsOf(page);
    const errors = errorsOf(page);
    await page.goto('/');
    await page.getByRole('link', { name: 'Join Community' }).waitFor();
    // The server's HTML is the page: the visitor's code hydrates it (client/public-page.tsx), nothing drawn anew.
    await page.waitForLoadState('networkidle');
    expect(await page.locator('#prerendered').count()).toBe(1);
    expect(scripts.has('public-page')).toBe(true);
    expect([...scripts].filter((name) => APP_CODE.includes(name))).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('at /login is the sign-in page without the app’s code, which loads on signing in and opens the page asked for', async () => {
    const account = person('Vera', 'Visitor');
    await registerMember(site.url, account);
    const context = await newContext(browser, site.url);
    const page = await context.newPage();
    const scripts = scriptsOf(page);
    const errors = errorsOf(page);
    await page.goto('/login?redirect=%2Fbookmarks');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    // To the registration page and back, still without the app.
    await page.getByRole('link', { name: 'Join the community' }).click();
    await page.getByRole('heading', { name: 'Join the community' }).waitFor();
    await page.goBack();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect([...scripts].filter((name) => APP_CODE.includes(name))).toEqual([]);

    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill(account.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(/\/bookmarks$/u);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Newsfeed' }).waitFor();
    expect(scripts.has('app')).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('at / for a member is the newsfeed in the shell', async () => {
    const account = person('Mina', 'Member');
    await registerMember(site.url, account);
    const context = await newContext(browser, site.url);
    const page = await context.newPage();
    await page.goto('/login');
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill(account.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/');
    const scripts = scriptsOf(page);
    await page.reload();
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Newsfeed' }).waitFor();
    expect(await nav.getByRole('link', { name: 'Newsfeed' }).getAttribute('aria-current')).toBe('page');
    expect(scripts.has('app')).toBe(true);
    expect(scripts.has('visitor')).toBe(false);
    await context.close();
  });
});
