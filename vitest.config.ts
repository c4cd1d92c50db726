import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      { extends: true, test: { name: 'unit', include: ['tests/unit/**/*.unit.spec.ts'], sequence: { groupOrder: 0 } } },
      {
        extends: true,
        test: {
          name: 'int',
          sequence: { groupOrder: 0 },
          include: ['tests/int/**/*.int.spec.ts'],
          globalSetup: ['tests/support/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          // Browsers run after the other projects, not beside them on the same two cores.
          sequence: { groupOrder: 1 },
          include: ['tests/e2e/**/*.e2e.ts'],
          globalSetup: ['tests/support/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
