/** The usual set-up of an api test file: a site with the cast of accounts on it, and each role's signed-in browser. */
import { browsersOf, type Browser } from './http';
import { siteWithCast, type Cast, type TestSite } from './site';

/** What castSite hands over: the site, the cast (registerCast), and each of its signed-in browsers by role. */
export type CastSite = { site: TestSite; cast: Cast } & Record<keyof Cast, Browser>;

/**
 * For the enclosing file: a site started with `env` and the cast on it (siteWithCast). The answer is filled in before
 * the file's tests (and its later beforeAll hooks) run.
 */
export function castSite(env: Record<string, string>): CastSite {
  const the = {} as CastSite;
  siteWithCast(env, ({ site, cast }) => Object.assign(the, { site, cast }, browsersOf(cast)));
  return the;
}
