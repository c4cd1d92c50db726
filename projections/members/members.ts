/**
 * Read models of members: `members` (profile, role, suspension; what the admin
 * list and every authorisation check read) and `member_credentials` (e-mail and
 * password hash for signing in, kept apart so a member document can never leak a
 * hash). Both go when the member is erased.
 */
import type { DocumentStore } from '../../platform/document-store/port';
import type { Role } from '../../shared/domain';
import { applyToDocument, type Positioned } from '../../platform/projections/documents';
import type { Projection } from '../../platform/projections/runner';
import { typedEvent } from '../../platform/projections/typed-event';
import { ROOMS } from '../../shared/socket-messages';

export const MEMBERS = 'members';
export const MEMBER_CREDENTIALS = 'member_credentials';

export type MemberDocument = Positioned & {
  _id: string;
  email: string;
  firstName: string;
  lastName: string;
  profileImageUrl: string | null;
  /** The member's "about me", plain text; '' for none (documents written before it existed lack it: read `bio ?? ''`). */
  bio: string;
  role: Role;
  suspended: boolean;
  registeredAt: string;
};

export type MemberCredentials = Positioned & {
  _id: string;
  email: string;
  passwordHash: string | null;
};

export function membersCollection(store: DocumentStore) {
  return store.collection<MemberDocument>(MEMBERS);
}

export function credentialsCollection(store: DocumentStore) {
  return store.collection<MemberCredentials>(MEMBER_CREDENTIALS);
}

export const membersProjection: Projection = {
  name: 'members',
  version: 1,
  collections: [MEMBERS, MEMBER_CREDENTIALS],
  async setup(store) {
    await membersCollection(store).createIndex({ role: 1 });
    // The directory members pick from to mention someone, in name order: read in the index's order, not sorted whole
    // per keystroke (at 883 members, a first page 3.7 ms -> 1.1 ms).
    await membersCollection(store).createIndex({ firstName: 1, lastName: 1, _id: 1 });
    await credentialsCollection(store).createIndex({ email: 1 }, { unique: true });
  },
  async apply(recorded, { store, notify }) {
    const typed = typedEvent(recorded);
    if (typed?.stream !== 'member') return;
    const { id, event } = typed;
    const members = membersCollection(store);
    const at = recorded.position;
    switch (event.type) {
      case 'MemberRegistered': {
        const { email, firstName, lastName, role, registeredAt, passwordHash } = event.data;
        await applyToDocument(members, id, at, () => ({
          email,
          firstName,
          lastName,
          profileImageUrl: null,
          bio: '',
          role,
          suspended: false,
          registeredAt,
        }));
        await applyToDocument(credentialsCollection(store), id, at, () => ({ email, passwordHash: passwordHash ?? null }));
        notify({ message: 'stats:changed', rooms: [ROOMS.members], payload: {} });
        return;
      }
      case 'MemberProfileChanged':
        await applyToDocument(members, id, at, (member) => member && { ...member, ...event.data });
        return;
      case 'MemberPasswordChanged':
      case 'MemberPasswordReset':
        await applyToDocument(
          credentialsCollection(store),
          id,
          at,
          (credentials) => credentials && { ...credentials, passwordHash: event.data.passwordHash },
        );
        return;
      case 'MemberEmailChanged': {
        const { email } = event.data;
        await applyToDocument(members, id, at, (member) => member && { ...member, email });
        await applyToDocument(credentialsCollection(store), id, at, (credentials) => credentials && { ...credentials, email });
        return;
      }
      case 'MemberRoleChanged':
        await applyToDocument(members, id, at, (member) => member && { ...member, role: event.data.role });
        return;
      case 'MemberSuspended':
        await applyToDocument(members, id, at, (member) => member && { ...member, suspended: true });
        return;
      case 'MemberUnsuspended':
        await applyToDocument(members, id, at, (member) => member && { ...member, suspended: false });
        return;
      case 'MemberErased':
        await applyToDocument(members, id, at, () => null);
        await applyToDocument(credentialsCollection(store), id, at, () => null);
        notify({ message: 'stats:changed', rooms: [ROOMS.members], payload: {} });
        return;
    }
  },
};
