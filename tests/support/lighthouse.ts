/**
 * Lighthouse, run on Debian's Chromium (launched headless by chrome-launcher, as Lighthouse's own CLI does): the
 * scores of a page in the categories asked for, and the audits that kept any below 100.
 */
import lighthouse from 'lighthouse';
import { launch } from 'chrome-launcher';

export type Category = 'performance' | 'accessibility' | 'best-practices' | 'seo';

export interface Audit {
  scores: Record<string, number>;
  /** Each audit of those categories that did not pass, with Lighthouse's title. */
  failures: string[];
}

export async function lighthouseAudit(url: string, categories: Category[], formFactor: 'mobile' | 'desktop' = 'mobile'): Promise<Audit> {
  const chrome = await launch({
    chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  try {
    const desktop =
      formFactor === 'desktop'
        ? { formFactor, screenEmulation: { mobile: false, width: 1350, height: 940, deviceScaleFactor: 1, disabled: false } }
        : {};
    const result = await lighthouse(url, { port: chrome.port, onlyCategories: categories, logLevel: 'error', output: 'json', ...desktop });
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    const { lhr } = result;
    const scores = Object.fromEntries(
      Object.values(lhr.categories).map((category) => [category.id, Math.round((category.score ?? 0) * 100)]),
    );
    const failures = Object.values(lhr.categories).flatMap((category) =>
      category.auditRefs
        .filter((ref) => ref.weight > 0)
        .map((ref) => lhr.audits[ref.id]!)
        .filter((audit) => audit.score !== null && audit.score < 1)
        .map((audit) => `${category.id}: ${audit.id} (${audit.title}) ${audit.displayValue ?? ''}`.trim()),
    );
    return { scores, failures };
  } finally {
    chrome.kill();
  }
}
