/**
 * Real Chromium for browser tests: Debian's /usr/bin/chromium driven by
 * playwright-core. Screenshots go to test-results/screenshots, kept by CI as
 * artifacts.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { AxeResults } from 'axe-core';
import { afterAll, beforeAll } from 'vitest';
import { startTestSite, type TestSite } from './site';
import { registrationLinkFor, registrationLinksQueued, takeRegistrationMail } from './registration-links';

export const SCREENSHOTS = resolve(import.meta.dirname, '../../test-results/screenshots');

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
}

/**
 * A test site (started with `env`) and a Chromium for one file's tests: both start before the tests and
 * close after them; `ready` receives them (and may open the pages the tests share).
 */
export function siteInBrowser(env: Record<string, string>, ready: (site: TestSite, browser: Browser) => void | Promise<void>) {
  let site: TestSite | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    site = await startTestSite(env);
    browser = await launchChromium();
    await ready(site, browser);
  });
  afterAll(async () => {
    await browser?.close();
    await site?.close();
  });
}

export async function newContext(
  browser: Browser,
  baseURL: string,
  options: { width?: number; height?: number } = {},
): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL, viewport: { width: options.width ?? 1280, height: options.height ?? 800 } });
  context.setDefaultTimeout(10_000);
  return context;
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const path = resolve(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/**
 * Waits until the page the server rendered (the landing, a blog or event page) is hydrated: React has taken over its
 * first heading. A blog post hydrates when its reader reads on, hence the turn of the wheel. Before that, its forms
 * and buttons are the server's markup alone.
 */
export async function publicPageHydrated(page: Page): Promise<void> {
  await page.mouse.wheel(0, 1);
  await page.waitForFunction(() => {
    const h1 = document.querySelector('#prerendered h1');
    return h1 !== null && Object.keys(h1).some((key) => key.startsWith('__reactFiber'));
  });
}

/**
 * Records what the Content-Security-Policy refuses on every page of a context (Chromium reports each refusal
 * on the console), so a test can check that the site never relies on anything its own policy forbids.
 */
export function recordPolicyViolations(context: BrowserContext): string[] {
  const violations: string[] = [];
  context.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(`${message.location().url}: ${message.text()}`);
  });
  return violations;
}

/**
 * Registers through the real form, then follows the link the site mailed (read as registerMember reads it) and presses
 * its button, as the newcomer does; returns once the signed-in shell's address shows.
 */
export async function registerInBrowser(page: Page, account: { firstName: string; lastName: string; email: string; password: string }) {
  await page.goto('/register');
  const before = registrationLinksQueued(new URL(page.url()).origin, account.email);
  await page.getByLabel('First name').fill(account.firstName);
  await page.getByLabel('Last name').fill(account.lastName);
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: /create account|join|register/i }).click();
  await page.getByRole('heading', { name: 'Check your mail' }).waitFor();
  await followRegistrationLink(page, account.email, before);
}

/**
 * Opens the link that finishes signing up, mailed to `email`, in `page`, and presses its button; `after`: the links
 * queued for the address before this registration (registrationLinksQueued).
 */
export async function followRegistrationLink(page: Page, email: string, after = 0) {
  const origin = new URL(page.url()).origin;
  const link = await registrationLinkFor(origin, email, after);
  await page.goto(new URL(link).pathname);
  await page.getByRole('button', { name: 'Finish signing up' }).click();
  await page.waitForURL((url) => url.pathname === '/');
  void takeRegistrationMail(origin, link).catch(() => undefined);
}

/** Serious and critical accessibility violations on the page, as axe-core reports them. */
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export async function accessibilityViolations(page: Page) {
  // Evaluated through the DevTools protocol: an inline <script> tag would be refused by the site's CSP.
  await page.evaluate(axeSource);
  const results = await page.evaluate(() =>
    (window as unknown as { axe: { run: (context: Document, options: object) => Promise<AxeResults> } }).axe.run(document, {
      resultTypes: ['violations'],
    }),
  );
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

/** A new account's details, unique per call. */
export function person(firstName: string, lastName: string) {
  return {
    firstName,
    lastName,
    email: `${firstName.toLowerCase()}-${Date.now()}-${Math.random().toString(36).slice(2, 6)}@example.org`,
    password: 'correct horse battery',
  };
}

/**
 * Ada Admin (the site's first account, so its admin), Mary Member and Otto Other, newly registered, each on the
 * newsfeed in a browser context of their own: the readers of a live-update test.
 */
export async function openNewsfeedForThree(browser: Browser, siteUrl: string): Promise<{ admin: Page; member: Page; other: Page }> {
  const open = (account: ReturnType<typeof person>) => openNewsfeedAs(browser, siteUrl, account);
  return {
    admin: await open(person('Ada', 'Admin')),
    member: await open(person('Mary', 'Member')),
    other: await open(person('Otto', 'Other')),
  };
}

/** A newly registered member's page on the newsfeed, in a browser context of its own. */
export async function openNewsfeedAs(browser: Browser, siteUrl: string, account: ReturnType<typeof person>): Promise<Page> {
  const { page } = await openAs(browser, siteUrl, account);
  await page.getByRole('heading', { name: 'Broadcast History Newsfeed' }).waitFor();
  return page;
}

/** A new browser context signed in as a newly registered member, on `path`. */
export async function openAs(
  browser: Browser,
  siteUrl: string,
  account: ReturnType<typeof person>,
  path?: string,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await newContext(browser, siteUrl);
  const page = await context.newPage();
  await registerInBrowser(page, account);
  if (path) await page.goto(path);
  return { context, page };
}
