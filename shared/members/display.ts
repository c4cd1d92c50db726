/** How a member is named and pictured wherever they appear (docs/domain/members.md#display-name). */

export interface NamedMember {
  firstName?: string | null;
  lastName?: string | null;
  email?: string | null;
}

/** First and last name when both exist, else the part of the e-mail before the at sign, else 'User'. */
export function displayName({ firstName, lastName, email }: NamedMember): string {
  const first = firstName?.trim();
  const last = lastName?.trim();
  if (first && last) return `${first} ${last}`;
  const local = email?.split('@')[0]?.trim();
  return local || 'User';
}

/** Avatar fallback: uppercase initials of up to the first two words of the name. */
export function initials(name: string): string {
  return name
    .split(/\s+/u)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => Array.from(word)[0]!.toUpperCase())
    .join('');
}
