import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

/**
 * Tests by what they are: unit (rules alone, no servers), api (the site over HTTP, sockets and SMTP against the real
 * PostgreSQL, Redis and an SMTP server in the process), browser (Chromium driving the built client) and soak (fault,
 * fuzz and tour runs, each sized to what it proves). `npm test` runs them all: unit, api and soak first, three files at
 * a time (each file has its own database, and the event store's horizon leaves other databases' transactions out; the
 * tests wait on servers more than they compute), then the browsers two files at a time with the accessibility tour,
 * then Lighthouse's scores alone, since they measure speed. Within each, the soak files start first: they are the
 * longest (the fault runs, the fuzz, the tour), and started last they would hold up the end of their group.
 *
 * Files share their worker's modules (`isolate: false`): each file starts its own site, and nothing of ours keeps state
 * in a module that another file's site could see, so importing the server once per worker instead of once per file
 * saves two of the run's minutes.
 */
const servers = { globalSetup: ['tests/support/global-setup.ts'], testTimeout: 30_000, hookTimeout: 60_000 };
const TOUR = 'tests/soak/tour-*.soak.ts';
const LIGHTHOUSE = 'tests/browser/lighthouse.browser.ts';
/**
 * A browser's live update (a command, its notice, the socket, a refetch, a render) can take over vitest's default poll
 * of 1 s while two browser files and their sites share the machine's two cores: polls wait up to 5 s.
 */
const browsers = {
  globalSetup: ['tests/support/global-setup.ts'],
  testTimeout: 60_000,
  hookTimeout: 120_000,
  expect: { poll: { timeout: 5_000 } },
};
const first = { sequence: { groupOrder: 0 }, maxWorkers: 3 };

class SoakFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]) {
    const sorted = await super.sort(files);
    const soak = (file: TestSpecification) => (file.moduleId.includes('/tests/soak/') ? 0 : 1);
    const group = (file: TestSpecification) => file.project.config.sequence.groupOrder;
    return sorted
      .map((file, index) => ({ file, index }))
      .sort((a, b) => group(a.file) - group(b.file) || soak(a.file) - soak(b.file) || a.index - b.index)
      .map(({ file }) => file);
  }
}

export default defineConfig({
  test: {
    isolate: false,
    sequence: { sequencer: SoakFirst },
    projects: [
      { extends: true, test: { name: 'unit', include: ['tests/unit/**/*.unit.spec.ts'], ...first } },
      { extends: true, test: { name: 'api', include: ['tests/api/**/*.api.spec.ts'], ...first, ...servers } },
      { extends: true, test: { name: 'soak', include: ['tests/soak/**/*.soak.ts'], exclude: [TOUR], ...first, ...servers } },
      {
        extends: true,
        test: {
          name: 'browser',
          include: ['tests/browser/**/*.browser.ts', TOUR],
          exclude: [LIGHTHOUSE],
          sequence: { groupOrder: 1 },
          maxWorkers: 2,
          ...browsers,
        },
      },
      {
        extends: true,
        test: { name: 'lighthouse', include: [LIGHTHOUSE], sequence: { groupOrder: 2 }, maxWorkers: 1, ...browsers },
      },
    ],
  },
});
