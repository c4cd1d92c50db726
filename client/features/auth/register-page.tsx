/**
 * "Join the community" (/register): the form goes to POST /api/auth/register, whose answer is the same whether or not
 * the address has an account, so the page then says only "check your mail"; the mailed link finishes signing up and
 * signs in (docs/domain/members.md#registration).
 */
import { useState } from 'react';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/text-field';
import { register } from './api';
import { AuthCard, FormAlert, MailSent, authLinkLook, useAuthForm, type AuthNavigation } from './auth-card';

export function RegisterPage({ AuthLink }: AuthNavigation) {
  const [form, setForm] = useState({ firstName: '', lastName: '', email: '', password: '' });
  const [sentTo, setSentTo] = useState<string | null>(null);
  const { fields, error, pending, submit, edited } = useAuthForm('Could not create your account. Please try again.');
  const set = (key: keyof typeof form) => (value: string) => {
    setForm((current) => ({ ...current, [key]: value }));
    edited(key);
  };
  /** What every field of the form has alike: its name, its value and its refusal. */
  const control = (key: keyof typeof form) => ({ name: key, isRequired: true, value: form[key], onChange: set(key), error: fields[key] });
  const signInLink = (
    <>
      Already a member?{' '}
      <AuthLink to="/login" className={authLinkLook}>
        Sign in
      </AuthLink>
    </>
  );

  if (sentTo !== null)
    return (
      <MailSent
        message={
          <>
            We sent a link to <strong className="break-all">{sentTo}</strong>. Open it to finish signing up.
          </>
        }
        note={
          <>
            The link works once, within 24 hours. If nothing arrives in a few minutes, check your spam folder, or make sure you typed your
            address right. If this address already has an account, the mail says so instead.
          </>
        }
        onAnotherAddress={() => setSentTo(null)}
      >
        {signInLink}
      </MailSent>
    );

  return (
    <AuthCard title="Join the community">
      <form
        onSubmit={(event) =>
          void submit(async () => {
            await register(form);
            setSentTo(form.email.trim());
          })(event)
        }
        className="space-y-4"
      >
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField label="First name" autoComplete="given-name" {...control('firstName')} />
          <TextField label="Last name" autoComplete="family-name" {...control('lastName')} />
        </div>
        <TextField label="Email" type="email" autoComplete="email" {...control('email')} />
        <TextField label="Password" type="password" autoComplete="new-password" {...control('password')} />
        <p className="text-xs text-slate-500">At least 10 characters.</p>
        {error && <FormAlert>{error}</FormAlert>}
        <Button type="submit" isDisabled={pending} className="w-full">
          {pending ? 'Creating account...' : 'Create account'}
        </Button>
      </form>
      <p className="mt-6 text-center text-sm">{signInLink}</p>
    </AuthCard>
  );
}
