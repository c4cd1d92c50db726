/**
 * Member search finds names in any script, whatever their case, and never answers 5xx: the mention picker
 * (`GET /api/members?q=`) and the user list (`GET /api/admin/users?q=`). Before, any cased letter past ASCII was a
 * 500 (the document store refused to fold it), so Émile, Åsa or Σοφία could not be found or mentioned.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSite, UNLIMITED_RATES, type TestSite } from '../../support/site';
import { registerCast, registerMember } from '../../support/http';

let site: TestSite;
let cast: Awaited<ReturnType<typeof registerCast>>;
const NAMES = [
  ['Émile', 'Zola'],
  ['Åsa', 'Lindström'],
  ['Σοφία', 'Παπαδοπούλου'],
  ['Жанна', 'Иванова'],
  ['Ömer', 'Çelik'],
] as const;

beforeAll(async () => {
  site = await startTestSite(UNLIMITED_RATES);
  cast = await registerCast(site.url);
  for (const [firstName, lastName] of NAMES) await registerMember(site.url, { firstName, lastName });
});
afterAll(async () => {
  await site?.close();
});

const names = (body: { items: { name: string }[] }) => body.items.map((item) => item.name);

describe('searching members by name in any script', () => {
  it('finds each whatever the case typed, in the mention picker and the user list', async () => {
    for (const [firstName, lastName] of NAMES) {
      for (const typed of [
        firstName,
        firstName.toUpperCase(),
        firstName.toLowerCase(),
        `${firstName.slice(0, 2).toUpperCase()} ${lastName.slice(0, 3).toLowerCase()}`,
      ]) {
        const picker = await cast.member.browser.get(`/api/members?q=${encodeURIComponent(typed)}`);
        expect({ typed, status: picker.status }).toEqual({ typed, status: 200 });
        expect(names(picker.body)).toContain(`${firstName} ${lastName}`);
        const list = await cast.staff.browser.get(`/api/admin/users?q=${encodeURIComponent(typed)}`);
        expect({ typed, status: list.status }).toEqual({ typed, status: 200 });
        expect(names(list.body)).toContain(`${firstName} ${lastName}`);
      }
    }
  });

  it('answers every cased letter of every script without a 5xx', async () => {
    const letters: string[] = [];
    for (let c = 0x80; c <= 0x1ffff; c++) {
      if (c >= 0xd800 && c <= 0xdfff) continue;
      const s = String.fromCodePoint(c);
      if (s.toLowerCase() !== s || s.toUpperCase() !== s) letters.push(s);
    }
    // Forty at a time: every cased letter, a query each for both searches.
    const failures: string[] = [];
    for (let i = 0; i < letters.length; i += 40) {
      const q = letters.slice(i, i + 40).join('');
      for (const path of [
        `/api/members?q=${encodeURIComponent(q.slice(0, 80))}`,
        `/api/admin/users?q=${encodeURIComponent(q.slice(0, 100))}`,
      ]) {
        const answer = await cast.staff.browser.get(path);
        if (answer.status >= 500) failures.push(`${path} ${answer.status}`);
      }
    }
    expect(failures).toEqual([]);
  });
});
