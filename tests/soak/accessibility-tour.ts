/**
 * The accessibility tour (issue 18): every page of the site for every role that has it, at 1366×900 and on a
 * 390×844 phone, scanned by axe (no serious or critical finding) and checked for sideways scrolling. Every
 * finding of a role and size is listed at once, so one run shows them all. One file for each size
 * (tour-desktop.soak.ts, tour-phone.soak.ts), so the two run side by side.
 */
import { describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { TestSite } from '../support/site';
import { accessibilityViolations, siteInBrowser } from '../support/browser';
import { TOUR_ROLES, contextAs, pagesFor, seedTour, visit, type TourSeed, type TourSize } from '../support/tour';

/** The tour at one size: a site of its own, seeded once, every role in turn. */
export function accessibilityTour(size: TourSize) {
  let site: TestSite;
  let browser: Browser;
  let seed: TourSeed;

  siteInBrowser({ RATE_LIMIT_AUTH_MAX: '1000' }, async (started, chromium) => {
    site = started;
    browser = chromium;
    seed = await seedTour(site.url);
  });

  describe(`every page, every role, on a ${size}`, () => {
    for (const role of TOUR_ROLES)
      it(`has no serious accessibility finding and no sideways scrolling for a ${role} on a ${size}`, async () => {
        const { context, page } = await contextAs(browser, site.url, seed, role, size);
        const findings: string[] = [];
        try {
          for (const tourPage of pagesFor(role)) {
            await visit(page, seed, tourPage);
            for (const violation of await accessibilityViolations(page)) findings.push(`${tourPage.name}: ${violation}`);
            const overflow = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
            if (overflow > 0) findings.push(`${tourPage.name}: scrolls sideways by ${overflow}px`);
          }
        } finally {
          await context.close();
        }
        expect(findings, findings.join('\n')).toEqual([]);
        // Some thirty pages, each loaded and scanned: more than one browser test's usual minute.
      }, 240_000);
  });
}
