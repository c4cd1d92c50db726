import { defineConfig } from 'vitest/config';

/**
 * Tests by what they are: unit (rules alone, no servers), api (the site over HTTP, sockets and SMTP against the real
 * PostgreSQL, Redis and an SMTP server in the process), browser (Chromium driving the built client) and soak (fault,
 * fuzz and tour runs, each sized to what it proves). `npm test` runs them all: unit, api and soak first, two files at
 * a time (each file has its own database, and the event store's horizon leaves other databases' transactions out), then
 * the browsers one file at a time (two at once on two cores failed tests that wait on the page under load), Lighthouse's
 * scores and the tour last.
 */
const servers = { globalSetup: ['tests/support/global-setup.ts'], testTimeout: 30_000, hookTimeout: 60_000 };
const TOUR = 'tests/soak/tour.soak.ts';
/** Browser files that measure (Lighthouse's performance score) or soak: run after the others. */
const ALONE = [TOUR, 'tests/browser/lighthouse.browser.ts'];
const browsers = { globalSetup: ['tests/support/global-setup.ts'], testTimeout: 60_000, hookTimeout: 120_000 };

export default defineConfig({
  test: {
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: 'unit', include: ['tests/unit/**/*.unit.spec.ts'], sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: 'api', include: ['tests/api/**/*.api.spec.ts'], sequence: { groupOrder: 0 }, ...servers } },
      {
        extends: true,
        test: { name: 'soak', include: ['tests/soak/**/*.soak.ts'], exclude: [TOUR], sequence: { groupOrder: 0 }, ...servers },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          sequence: { groupOrder: 1 },
          include: ['tests/browser/**/*.browser.ts'],
          exclude: ALONE,
          fileParallelism: false,
          ...browsers,
        },
      },
      {
        extends: true,
        test: { name: 'browser-alone', sequence: { groupOrder: 2 }, include: ALONE, fileParallelism: false, ...browsers },
      },
    ],
  },
});
