/**
 * A member account (stream `member-<id>`). E-mail uniqueness and "who is the first
 * member" need other streams, so the caller settles them and passes the answer in
 * (`isFirstMember`, `adminCount`); password hashing happens before the command too.
 */
import { type CommandMetadata, type Decider, type Role, assertNever, fail } from '../domain';

export type MemberEvent =
  | {
      type: 'MemberRegistered';
      data: {
        id: string;
        /** Lowercased. */
        email: string;
        firstName: string;
        lastName: string;
        role: Role;
        /** Absent for accounts that only sign in by e-mailed link. */
        passwordHash?: string;
        registeredAt: string;
      };
    }
  | { type: 'MemberProfileChanged'; data: ProfileChanges }
  | { type: 'MemberPasswordChanged'; data: { passwordHash: string; changedAt: string } }
  /**
   * Someone asked for a reset link for the account's address (docs/domain/members.md#password-reset). `resetId` names
   * the request; the link's token is only ever in the mail and, hashed, in Redis: nothing derived from it is logged.
   */
  | { type: 'MemberPasswordResetRequested'; data: { resetId: string; requestedAt: string; expiresAt: string } }
  /** The reset link was used: a new password, and every pending reset of the account ends with it. */
  | { type: 'MemberPasswordReset'; data: { resetId: string; passwordHash: string; resetAt: string } }
  /** The member proved they read mail at the new address (the link sent there); it is claimed for them already. */
  | { type: 'MemberEmailChanged'; data: { /** Lowercased. */ email: string; changedAt: string } }
  | { type: 'MemberRoleChanged'; data: { role: Role; previousRole: Role; changedBy: string; changedAt: string } }
  | { type: 'MemberSuspended'; data: { by: string; reason?: string; at: string } }
  | { type: 'MemberUnsuspended'; data: { by: string; at: string } }
  /**
   * The member left and asked for their data to be erased (docs/domain/members.md#erasure): their account's keys are
   * destroyed, and with `content: 'removed'` their content's too; what they wrote otherwise stays, as by "Former member".
   */
  | { type: 'MemberErased'; data: { content: ErasedContent; at: string } };

/** Whether an erased member's posts, comments, events and blog posts stay (as by "Former member") or go with them. */
export const ERASED_CONTENT = ['kept', 'removed'] as const;
export type ErasedContent = (typeof ERASED_CONTENT)[number];

/** Only the fields that changed, so a projection can merge them as they are. */
export interface ProfileChanges {
  firstName?: string;
  lastName?: string;
  profileImageUrl?: string | null;
  /** Plain text, trimmed, at most BIO_MAX_LENGTH characters; '' for none. */
  bio?: string;
}

/** The longest "about me" a member may write: a short paragraph for the public profile page. */
export const BIO_MAX_LENGTH = 500;

export type MemberCommand =
  | {
      type: 'RegisterMember';
      data: {
        id: string;
        email: string;
        firstName: string;
        lastName: string;
        passwordHash?: string;
        /** True when this registration claimed the founder stream: the first account ever becomes admin. */
        isFirstMember: boolean;
      };
      metadata: CommandMetadata;
    }
  | { type: 'ChangeProfile'; data: ProfileChanges; metadata: CommandMetadata }
  | { type: 'ChangePassword'; data: { passwordHash: string }; metadata: CommandMetadata }
  /** Anyone may ask (actor null: the link goes to the account's own address); `resetId` is new, made by the caller. */
  | { type: 'RequestPasswordReset'; data: { resetId: string }; metadata: CommandMetadata }
  /** The holder of the reset link (the mailed token, checked by the caller, names `resetId`) sets a new password. */
  | { type: 'ResetPassword'; data: { resetId: string; passwordHash: string }; metadata: CommandMetadata }
  /** The caller has claimed the new address's stream for this member and checked the link mailed there. */
  | { type: 'ChangeEmail'; data: { email: string }; metadata: CommandMetadata }
  | {
      type: 'ChangeRole';
      data: {
        role: Role;
        /** Admins who are not suspended, counted by the caller from the members read model. */
        adminCount: number;
      };
      metadata: CommandMetadata;
    }
  | { type: 'SuspendMember'; data: { reason?: string }; metadata: CommandMetadata }
  | { type: 'UnsuspendMember'; data: Record<string, never>; metadata: CommandMetadata }
  | {
      type: 'EraseMember';
      /** `adminCount`: admins who are not suspended, counted by the caller, so the last one cannot leave. */
      data: { content: ErasedContent; adminCount: number };
      metadata: CommandMetadata;
    };

export interface MemberState {
  registered: boolean;
  /** Erased: the account is gone; nothing can be done with it any more. */
  erased: boolean;
  id: string;
  role: Role;
  suspended: boolean;
  email: string;
  firstName: string;
  lastName: string;
  profileImageUrl: string | null;
  bio: string;
  /** Password resets asked for and not yet used or ended: reset id → when its link expires (ISO). */
  passwordResets: Readonly<Record<string, string>>;
}

/** How long a password reset link works. */
export const PASSWORD_RESET_TTL_MS = 60 * 60 * 1000;
export const RESET_LINK_SPENT = 'This password reset link has expired or was already used.';

const MODERATORS: readonly Role[] = ['admin', 'staff'];

export const memberDecider: Decider<MemberState, MemberCommand, MemberEvent> = {
  initialState: () => ({
    registered: false,
    erased: false,
    id: '',
    role: 'member',
    suspended: false,
    email: '',
    firstName: '',
    lastName: '',
    profileImageUrl: null,
    bio: '',
    passwordResets: {},
  }),

  evolve(state, event) {
    switch (event.type) {
      case 'MemberRegistered':
        return {
          ...state,
          registered: true,
          id: event.data.id,
          role: event.data.role,
          email: event.data.email,
          firstName: event.data.firstName,
          lastName: event.data.lastName,
        };
      case 'MemberProfileChanged':
        return { ...state, ...event.data };
      case 'MemberPasswordResetRequested':
        return { ...state, passwordResets: { ...state.passwordResets, [event.data.resetId]: event.data.expiresAt } };
      // A new password, however it was set, ends every reset link not yet used; so does a new address (the links went
      // to the old one).
      case 'MemberPasswordChanged':
      case 'MemberPasswordReset':
        return { ...state, passwordResets: {} };
      case 'MemberEmailChanged':
        return { ...state, email: event.data.email, passwordResets: {} };
      case 'MemberRoleChanged':
        return { ...state, role: event.data.role };
      case 'MemberSuspended':
        return { ...state, suspended: true };
      case 'MemberUnsuspended':
        return { ...state, suspended: false };
      case 'MemberErased':
        return { ...state, erased: true };
      default:
        return assertNever(event);
    }
  },

  decide(command, state) {
    const { actor, now } = command.metadata;
    if (command.type === 'RegisterMember') {
      if (state.registered) throw fail.conflict('An account with this e-mail address already exists. Sign in instead.');
      const { id, email, firstName, lastName, passwordHash, isFirstMember } = command.data;
      return [
        {
          type: 'MemberRegistered',
          data: {
            id,
            email: email.trim().toLowerCase(),
            firstName,
            lastName,
            role: isFirstMember ? 'admin' : 'member',
            ...(passwordHash === undefined ? {} : { passwordHash }),
            registeredAt: now.toISOString(),
          },
        },
      ];
    }
    if (!state.registered || state.erased) throw fail.notFound('Member not found');
    // Asked for signed out: the mailed link is what proves the asker reads the account's mail.
    if (command.type === 'RequestPasswordReset') {
      if (state.suspended) throw fail.forbidden('Your account is suspended. Please contact the community staff.');
      const expiresAt = new Date(now.getTime() + PASSWORD_RESET_TTL_MS).toISOString();
      return [{ type: 'MemberPasswordResetRequested', data: { resetId: command.data.resetId, requestedAt: now.toISOString(), expiresAt } }];
    }
    if (command.type === 'ResetPassword') {
      const expiresAt = state.passwordResets[command.data.resetId];
      // Used, ended by a later password or address, or expired: all the same to the holder of the link.
      if (expiresAt === undefined || now.getTime() >= Date.parse(expiresAt)) throw fail.notFound(RESET_LINK_SPENT);
      if (state.suspended) throw fail.forbidden('Your account is suspended. Please contact the community staff.');
      return [
        {
          type: 'MemberPasswordReset',
          data: { resetId: command.data.resetId, passwordHash: command.data.passwordHash, resetAt: now.toISOString() },
        },
      ];
    }
    if (!actor) throw fail.unauthenticated();

    switch (command.type) {
      case 'ChangeProfile': {
        if (actor.id !== state.id && actor.role !== 'admin') throw fail.forbidden('You can only change your own profile');
        const changes: ProfileChanges = {};
        const { firstName, lastName, profileImageUrl } = command.data;
        const bio = command.data.bio?.trim();
        if (bio !== undefined && bio.length > BIO_MAX_LENGTH)
          throw fail.invalid(`Bio must be at most ${BIO_MAX_LENGTH} characters`, {
            bio: `Bio must be at most ${BIO_MAX_LENGTH} characters`,
          });
        if (firstName !== undefined && firstName !== state.firstName) changes.firstName = firstName;
        if (lastName !== undefined && lastName !== state.lastName) changes.lastName = lastName;
        if (profileImageUrl !== undefined && profileImageUrl !== state.profileImageUrl) changes.profileImageUrl = profileImageUrl;
        if (bio !== undefined && bio !== state.bio) changes.bio = bio;
        return Object.keys(changes).length === 0 ? [] : [{ type: 'MemberProfileChanged', data: changes }];
      }
      case 'ChangePassword':
        if (actor.id !== state.id) throw fail.forbidden('You can only change your own password');
        // Hashes are salted, so a repeat of the same password still yields a new hash: no no-op here.
        return [{ type: 'MemberPasswordChanged', data: { passwordHash: command.data.passwordHash, changedAt: now.toISOString() } }];
      case 'ChangeEmail': {
        // Only the member: the link went to the new address, and only they could ask for it.
        if (actor.id !== state.id) throw fail.forbidden('You can only change your own e-mail address');
        if (state.suspended) throw fail.forbidden('Your account is suspended. Please contact the community staff.');
        const email = command.data.email.trim().toLowerCase();
        if (email === state.email) return [];
        return [{ type: 'MemberEmailChanged', data: { email, changedAt: now.toISOString() } }];
      }
      case 'ChangeRole': {
        if (actor.role !== 'admin') throw fail.forbidden('Only admins can change roles');
        const { role, adminCount } = command.data;
        if (role === state.role) return [];
        // A suspended admin is not counted among the active ones, so demoting one cannot leave the site without an admin.
        if (state.role === 'admin' && !state.suspended && adminCount <= 1) {
          throw fail.rule('The last admin cannot be demoted. Make another member admin first.');
        }
        return [
          {
            type: 'MemberRoleChanged',
            data: { role, previousRole: state.role, changedBy: actor.id, changedAt: now.toISOString() },
          },
        ];
      }
      case 'SuspendMember': {
        assertMayModerate(actor.role, state, 'suspend');
        if (actor.id === state.id) throw fail.rule('You cannot suspend yourself');
        if (state.suspended) return [];
        const { reason } = command.data;
        return [{ type: 'MemberSuspended', data: { by: actor.id, ...(reason ? { reason } : {}), at: now.toISOString() } }];
      }
      case 'UnsuspendMember':
        assertMayModerate(actor.role, state, 'unsuspend');
        if (!state.suspended) return [];
        return [{ type: 'MemberUnsuspended', data: { by: actor.id, at: now.toISOString() } }];
      case 'EraseMember':
        if (actor.id !== state.id) throw fail.forbidden('Only the member can erase their own account');
        if (state.role === 'admin' && !state.suspended && command.data.adminCount <= 1) {
          throw fail.rule('The last admin cannot leave. Make another member admin first.');
        }
        return [{ type: 'MemberErased', data: { content: command.data.content, at: now.toISOString() } }];
      default:
        return assertNever(command);
    }
  },
};

/** Admin and staff moderate members; staff may not overrule an admin's standing, in either direction. */
function assertMayModerate(actorRole: Role, member: MemberState, action: 'suspend' | 'unsuspend') {
  if (!MODERATORS.includes(actorRole)) throw fail.forbidden(`Only admins and staff can ${action} members`);
  if (actorRole === 'staff' && member.role === 'admin') throw fail.forbidden(`Staff cannot ${action} an admin`);
}
