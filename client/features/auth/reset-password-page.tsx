/**
 * Where a password reset mail links to (/reset-password/{token}): opening it changes nothing (mail scanners open
 * links); the new password is sent by the form, and on success every session of the member has ended, so the
 * person is sent to sign in with it. A used or expired link says so and offers a new one.
 */
import { useState } from 'react';
import { Link, useNavigate, useParams } from '@tanstack/react-router';
import { useQueryClient } from '@tanstack/react-query';
import { Button, buttonLook } from '../../components/ui/button';
import { LabelledSwitch } from '../../components/ui/switch';
import { TextField } from '../../components/ui/text-field';
import { CURRENT_USER_KEY } from '../../lib/current-user';
import { resetPassword } from './api';
import { AuthCard, AuthOutcome, FormAlert, useAuthForm } from './auth-card';
import { BackToSignIn } from './back-to-sign-in';

export function ResetPasswordPage() {
  const { token = '' } = useParams({ strict: false });
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [password, setPassword] = useState('');
  const [shown, setShown] = useState(false);
  const [spent, setSpent] = useState(false);
  const { fields, error, pending, submit, edited } = useAuthForm('Could not change your password. Please try again.', (refusal) => {
    if (refusal.status !== 404) return false;
    setSpent(true);
    return true;
  });

  if (spent)
    return (
      <AuthOutcome
        title="This link no longer works"
        role="alert"
        message={
          <>
            This password reset link has expired or was already used. A link works once, for 60 minutes after it was sent, and asking again
            ends the earlier ones.
          </>
        }
        note="Your password has not been changed by this link."
      >
        <Link to="/forgot-password" className={`${buttonLook('primary')} w-full`}>
          Ask for a new link
        </Link>
        <p className="text-center text-sm">
          <BackToSignIn />
        </p>
      </AuthOutcome>
    );

  return (
    <AuthCard title="Choose a new password">
      <p className="mb-4 text-sm text-slate-700 dark:text-slate-300">
        Saving it signs you out on every browser; then sign in with the new password.
      </p>
      <form
        onSubmit={(event) =>
          void submit(async () => {
            await resetPassword(token, { password });
            // Every session of the member has ended, this browser's too if it was theirs.
            queryClient.setQueryData(CURRENT_USER_KEY, null);
            await navigate({ to: '/login', search: { reset: 'done' }, replace: true });
          })(event)
        }
        className="space-y-4"
      >
        <TextField
          label="New password"
          type={shown ? 'text' : 'password'}
          name="password"
          autoComplete="new-password"
          isRequired
          autoFocus
          value={password}
          onChange={(value) => {
            setPassword(value);
            edited('password');
          }}
          error={fields.password}
        />
        <p className="text-xs text-slate-500">At least 10 characters.</p>
        <LabelledSwitch label="Show password" description="Check what you typed before saving it." isSelected={shown} onChange={setShown} />
        {error && <FormAlert>{error}</FormAlert>}
        <Button type="submit" isDisabled={pending || password === ''} className="w-full">
          {pending ? 'Saving...' : 'Save new password'}
        </Button>
      </form>
      <p className="mt-6 text-center text-sm">
        <BackToSignIn />
      </p>
    </AuthCard>
  );
}
