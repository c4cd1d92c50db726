/**
 * Input schemas of the account and member-management calls (docs/domain/members.md), and the answers
 * of those calls.
 */
import * as v from 'valibot';
import { ROLES } from '../domain';
import { BIO_MAX_LENGTH } from './member-stream';
import { text } from '../text-schema';

export const PASSWORD_MIN_LENGTH = 10;
/** Long enough for any passphrase, short enough that hashing stays cheap for an attacker's input. */
export const PASSWORD_MAX_LENGTH = 200;
const NAME_MAX_LENGTH = 100;
/** RFC 5321's limit on a forward path. */
const EMAIL_MAX_LENGTH = 254;

// A missing field reads as '' so that it gets the same "… is required" message as an empty one.
export const EmailSchema = v.pipe(
  v.optional(text('Email is required'), ''),
  v.trim(),
  v.toLowerCase(),
  v.nonEmpty('Email is required'),
  v.maxLength(EMAIL_MAX_LENGTH, 'Email is too long'),
  v.email('Enter a valid email address'),
);

export const PasswordSchema = v.pipe(
  v.optional(text('Password is required'), ''),
  v.nonEmpty('Password is required'),
  v.minLength(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters`),
  v.maxLength(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters`),
);

function nameSchema(label: string) {
  return v.pipe(
    v.optional(text(`${label} is required`), ''),
    v.trim(),
    v.nonEmpty(`${label} is required`),
    v.maxLength(NAME_MAX_LENGTH, `${label} must be at most ${NAME_MAX_LENGTH} characters`),
  );
}

export const RegisterSchema = v.object({
  email: EmailSchema,
  password: PasswordSchema,
  firstName: nameSchema('First name'),
  lastName: nameSchema('Last name'),
});
export type RegisterInput = v.InferOutput<typeof RegisterSchema>;

export const LoginSchema = v.object({
  email: EmailSchema,
  // No minimum here: the length rule belongs to choosing a password, not to trying one.
  password: v.pipe(
    v.optional(text('Password is required'), ''),
    v.nonEmpty('Password is required'),
    v.maxLength(PASSWORD_MAX_LENGTH, 'Invalid email or password'),
  ),
});
export type LoginInput = v.InferOutput<typeof LoginSchema>;

export const MagicLinkSchema = v.object({ email: EmailSchema });
export type MagicLinkInput = v.InferOutput<typeof MagicLinkSchema>;

export const RoleChangeSchema = v.object({
  role: v.picklist(ROLES, `Role must be one of ${ROLES.join(', ')}`),
});
export type RoleChangeInput = v.InferOutput<typeof RoleChangeSchema>;

export const ProfileChangeSchema = v.object({
  firstName: v.optional(nameSchema('First name')),
  lastName: v.optional(nameSchema('Last name')),
  /** Plain text: shown as typed, never as markup. '' removes it. */
  bio: v.optional(
    v.pipe(text('Bio must be text'), v.trim(), v.maxLength(BIO_MAX_LENGTH, `Bio must be at most ${BIO_MAX_LENGTH} characters`)),
  ),
});
export type ProfileChangeInput = v.InferOutput<typeof ProfileChangeSchema>;

export const PasswordChangeSchema = v.object({
  currentPassword: v.pipe(v.optional(text('Current password is required'), ''), v.nonEmpty('Current password is required')),
  newPassword: PasswordSchema,
});
export type PasswordChangeInput = v.InferOutput<typeof PasswordChangeSchema>;

/** A new address needs the current password too: a session alone (perhaps a stolen one) cannot move the account. */
export const EmailChangeSchema = v.object({
  email: EmailSchema,
  currentPassword: v.pipe(v.optional(text('Current password is required'), ''), v.nonEmpty('Current password is required')),
});
export type EmailChangeInput = v.InferOutput<typeof EmailChangeSchema>;

/** POST /api/me/email: where the confirmation link went. */
export const EmailChangeRequestedSchema = v.object({ message: v.string() });
export type EmailChangeRequested = v.InferOutput<typeof EmailChangeRequestedSchema>;

/** One signed-in browser of the member's, for the account page (never the session id or cookie). */
export const OpenSessionSchema = v.object({
  /** Opaque: names the session for DELETE /api/me/sessions/{id}, and cannot be turned back into it. */
  id: v.string(),
  /** The session this request came with. */
  current: v.boolean(),
  /** ISO instants; null for sessions begun before they were recorded. */
  signedInAt: v.nullable(v.string()),
  lastSeenAt: v.nullable(v.string()),
  /** A short description of the browser, like "Firefox on Windows"; null when it did not say. */
  userAgent: v.nullable(v.string()),
});
export type OpenSession = v.InferOutput<typeof OpenSessionSchema>;
export const OpenSessionsSchema = v.object({ items: v.array(OpenSessionSchema) });
export type OpenSessions = v.InferOutput<typeof OpenSessionsSchema>;

/** POST /api/me/sessions/end-others: how many sessions ended. */
export const SessionsEndedSchema = v.object({ ended: v.pipe(v.number(), v.integer(), v.minValue(0)) });
export type SessionsEnded = v.InferOutput<typeof SessionsEndedSchema>;

/** A member as the account calls answer them: who is signed in, and a member after staff changed them. */
export const UserSchema = v.object({
  id: v.string(),
  email: v.string(),
  firstName: v.string(),
  lastName: v.string(),
  /** null: no picture, the initials are shown. */
  profileImageUrl: v.nullable(v.string()),
  role: v.picklist(ROLES),
  /** The member's "about me", plain text; '' for none. */
  bio: v.string(),
});
export type User = v.InferOutput<typeof UserSchema>;

/** Who is signed in, asked without a 401 for a visitor: the web app asks this on every page. */
export const SessionSchema = v.object({ user: v.nullable(UserSchema) });
export type Session = v.InferOutput<typeof SessionSchema>;

/** Whether a member has an open socket now, or had one lately (docs/domain/members.md#presence). */
export const PRESENCE_STATUSES = ['online', 'away', 'offline'] as const;

/** One row of the staff's member list (docs/domain/members.md#user-list). */
export const MemberRowSchema = v.object({
  id: v.string(),
  /** The display name (docs/domain/members.md#display-name). */
  name: v.string(),
  email: v.string(),
  role: v.picklist(ROLES),
  status: v.picklist(PRESENCE_STATUSES),
  /** How many posts the member wrote. */
  posts: v.pipe(v.number(), v.integer(), v.minValue(0)),
  /** When the member registered, an ISO instant in UTC. */
  joinedAt: v.string(),
  suspended: v.boolean(),
});
export type MemberRow = v.InferOutput<typeof MemberRowSchema>;

/** POST /api/auth/magic-link: the same words whether or not the address has an account. */
export const SignInLinkRequestedSchema = v.object({ message: v.string() });
export type SignInLinkRequested = v.InferOutput<typeof SignInLinkRequestedSchema>;

/**
 * POST /api/auth/register: one answer for every address, whether or not it has an account (docs/domain/members.md#registration);
 * the mail that follows differs.
 */
export const REGISTRATION_REQUESTED_MESSAGE =
  'Check your mail to finish signing up: we sent a link to the address you gave. It works once, within 24 hours.';
export const RegistrationRequestedSchema = v.object({ message: v.string() });
export type RegistrationRequested = v.InferOutput<typeof RegistrationRequestedSchema>;
