/**
 * `npm run screenshots`: the screenshot tour. Starts a site as the tests do (its own database, every role in this
 * process), seeds it through the API, and writes every page of the tour (tests/support/tour.ts) for every role at
 * desktop and phone size as `<folder>/<size>/<role>/<page>.png`, so a reviewer can look at the whole site in a
 * minute. The folder is `screenshots/` unless given: `npm run screenshots -- some/folder`.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { pino } from 'pino';
import { launchChromium } from '../tests/support/browser';
import { UNLIMITED_RATES, startTestSite } from '../tests/support/site';
import { TOUR_ROLES, TOUR_SIZES, contextAs, pagesFor, seedTour, visit, type TourSize } from '../tests/support/tour';

const logger = pino({ name: 'screenshots' });
const folder = resolve(process.argv[2] ?? 'screenshots');
rmSync(folder, { recursive: true, force: true });

const site = await startTestSite(UNLIMITED_RATES);
const browser = await launchChromium();
let written = 0;
try {
  const seed = await seedTour(site.url);
  for (const size of Object.keys(TOUR_SIZES) as TourSize[])
    for (const role of TOUR_ROLES) {
      const directory = resolve(folder, size, role);
      mkdirSync(directory, { recursive: true });
      const { context, page } = await contextAs(browser, site.url, seed, role, size);
      for (const tourPage of pagesFor(role)) {
        await visit(page, seed, tourPage);
        await page.screenshot({ path: resolve(directory, `${tourPage.name}.png`), fullPage: true });
        written += 1;
      }
      await context.close();
      logger.info({ size, role }, 'written');
    }
} finally {
  await browser.close();
  await site.close();
}
logger.info({ folder, screenshots: written }, 'screenshot tour written');
