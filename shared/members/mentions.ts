/**
 * Mentions (docs/domain/notifications.md#mentions): `@First Last` in a post or comment, as the member picker inserts
 * it. The words after each `@` name candidates; the server keeps those that are members.
 */
export const MENTIONS_MAX = 10;

/** The (first name, last name) pairs the text may mention: after each `@`, one first name and a last name of one or two words. */
export function mentionCandidates(text: string): { firstName: string; lastName: string }[] {
  const found = new Map<string, { firstName: string; lastName: string }>();
  for (const match of text.matchAll(/(?:^|[^\p{L}\p{N}_])@([\p{L}\p{N}'’.-]+) ([\p{L}\p{N}'’.-]+)(?: ([\p{L}\p{N}'’.-]+))?/gu)) {
    const [, first, second, third] = match;
    const trimmed = (word: string) => word.replace(/[.'’-]+$/u, '');
    const pairs = [
      { firstName: first!, lastName: trimmed(second!) },
      ...(third ? [{ firstName: first!, lastName: `${second} ${trimmed(third)}` }] : []),
    ];
    for (const pair of pairs) found.set(`${pair.firstName} ${pair.lastName}`, pair);
  }
  return [...found.values()].slice(0, MENTIONS_MAX * 2);
}

/** What the picker completes: the text typed after an `@` just before the caret (a first name, perhaps a space and more), or null. */
export function mentionQueryBefore(textBeforeCaret: string): string | null {
  const match = /(?:^|\s)@([\p{L}\p{N}'’.-]*(?: [\p{L}\p{N}'’.-]*)?)$/u.exec(textBeforeCaret);
  return match ? match[1]! : null;
}
