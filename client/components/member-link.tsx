/**
 * A member's name (or picture) leading to their profile page (/members/{id}). Visitors on the public pages see
 * the name only: profiles are for signed-in members. An erased member ("Former member") has no profile to lead to.
 */
import type { ReactNode } from 'react';
import { Link } from '@tanstack/react-router';
import { useCurrentUser } from '../lib/current-user';
import { displayName } from '../../shared/members/display';
import { FORMER_MEMBER } from '../../shared/personal-data';

/** What an erased member's kept content is signed with: they have no profile any more. */
const FORMER_MEMBER_NAME = displayName(FORMER_MEMBER);

/**
 * `children` replaces the name as the link's content (a picture). A picture beside a linked name is `decorative`:
 * a pointer can follow it, while keyboards and screen readers meet one link per member, the name.
 */
export function MemberLink({
  id,
  name,
  children,
  decorative = false,
  className = '',
}: {
  id: string;
  name: string;
  children?: ReactNode;
  decorative?: boolean;
  className?: string;
}) {
  const { data: user } = useCurrentUser();
  if (!user || name === FORMER_MEMBER_NAME) return <span className={className}>{children ?? name}</span>;
  return (
    <Link
      to="/members/$id"
      params={{ id }}
      className={`rounded-sm hover:underline ${className}`}
      {...(decorative ? { tabIndex: -1, 'aria-hidden': true } : children ? { 'aria-label': `${name}’s profile` } : {})}
    >
      {children ?? name}
    </Link>
  );
}
