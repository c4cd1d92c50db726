/** Password reset by mail (docs/domain/members.md#password-reset): what the two calls take and answer. */
import * as v from 'valibot';
import { EmailSchema, PasswordSchema } from './schemas';

export const PasswordResetRequestSchema = v.object({ email: EmailSchema });
export type PasswordResetRequestInput = v.InferOutput<typeof PasswordResetRequestSchema>;

export const PasswordResetRequestedSchema = v.object({ message: v.string() });
export type PasswordResetRequested = v.InferOutput<typeof PasswordResetRequestedSchema>;

/** The new password follows the registration rule. */
export const PasswordResetSchema = v.object({ password: PasswordSchema });
export type PasswordResetInput = v.InferOutput<typeof PasswordResetSchema>;

/** A used, unknown or expired link: `error` as the API contract names it, `message` as every other error has. */
export const PasswordResetLinkSpentSchema = v.object({ error: v.string(), message: v.string() });

export const PASSWORD_RESET_REQUESTED_MESSAGE =
  'If an account exists for that address, a link to choose a new password is on its way. Check your mail.';
