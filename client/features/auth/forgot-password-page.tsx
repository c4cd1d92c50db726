/**
 * "Forgot your password?" (/forgot-password): the address goes to POST /api/auth/password-reset, and the answer is
 * the same whether or not it has an account, so the page says only "check your mail" (docs/domain/members.md#password-reset).
 */
import { useState } from 'react';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/text-field';
import { requestPasswordReset } from './api';
import { AuthCard, FormAlert, MailSent, useAuthForm } from './auth-card';
import { BackToSignIn } from './back-to-sign-in';

export function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const { fields, error, pending, submit, edited } = useAuthForm('Could not send the link. Please try again.');

  if (sentTo !== null)
    return (
      <MailSent
        message={
          <>
            If an account exists for <strong className="break-all">{sentTo}</strong>, we have sent it a link to choose a new password.
          </>
        }
        note={
          <>
            The link works once, for 60 minutes. If nothing arrives in a few minutes, check your spam folder, or make sure you typed the
            address of your account.
          </>
        }
        onAnotherAddress={() => setSentTo(null)}
      >
        <BackToSignIn />
      </MailSent>
    );

  return (
    <AuthCard title="Reset your password">
      <p className="mb-4 text-sm text-slate-700 dark:text-slate-300">
        Enter the e-mail address of your account. We will send you a link to choose a new password.
      </p>
      <form
        onSubmit={(event) =>
          void submit(async () => {
            await requestPasswordReset(email);
            setSentTo(email.trim());
          })(event)
        }
        className="space-y-4"
      >
        <TextField
          label="Email"
          type="email"
          name="email"
          autoComplete="email"
          isRequired
          autoFocus
          value={email}
          onChange={(value) => {
            setEmail(value);
            edited('email');
          }}
          error={fields.email}
        />
        {error && <FormAlert>{error}</FormAlert>}
        <Button type="submit" isDisabled={pending || email.trim() === ''} className="w-full">
          {pending ? 'Sending...' : 'Send me a reset link'}
        </Button>
      </form>
      <p className="mt-6 text-center text-sm">
        Remembered it? <BackToSignIn />
      </p>
    </AuthCard>
  );
}
