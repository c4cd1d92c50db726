/**
 * "Join the community" (/register): the form goes to POST /api/auth/register, whose answer is the same whether or not
 * the address has an account, so the page then says only "check your mail"; the mailed link finishes signing up and
 * signs in (docs/domain/members.md#registration).
 */
import { useState } from 'react';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/text-field';
import { register } from './api';
import { AuthCard, FormAlert, authLinkLook, useAuthForm, type AuthNavigation } from './auth-card';

export function RegisterPage({ AuthLink }: AuthNavigation) {
  const [form, setForm] = useState({ firstName: '', lastName: '', email: '', password: '' });
  const [sentTo, setSentTo] = useState<string | null>(null);
  const { fields, error, pending, submit, edited } = useAuthForm('Could not create your account. Please try again.');
  const set = (key: keyof typeof form) => (value: string) => {
    setForm((current) => ({ ...current, [key]: value }));
    edited(key);
  };

  if (sentTo !== null)
    return (
      <AuthCard title="Check your mail">
        <div role="status" className="space-y-3">
          <p>
            We sent a link to <strong className="break-all">{sentTo}</strong>. Open it to finish signing up.
          </p>
          <p className="text-sm text-slate-600 dark:text-slate-400">
            The link works once, within 24 hours. If nothing arrives in a few minutes, check your spam folder, or make sure you typed your
            address right. If this address already has an account, the mail says so instead.
          </p>
        </div>
        <div className="mt-6 flex flex-col gap-3">
          <Button variant="secondary" className="w-full" onPress={() => setSentTo(null)}>
            Use another address
          </Button>
          <p className="text-center text-sm">
            Already a member?{' '}
            <AuthLink to="/login" className={authLinkLook}>
              Sign in
            </AuthLink>
          </p>
        </div>
      </AuthCard>
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
          <TextField
            label="First name"
            name="firstName"
            autoComplete="given-name"
            isRequired
            value={form.firstName}
            onChange={set('firstName')}
            error={fields.firstName}
          />
          <TextField
            label="Last name"
            name="lastName"
            autoComplete="family-name"
            isRequired
            value={form.lastName}
            onChange={set('lastName')}
            error={fields.lastName}
          />
        </div>
        <TextField
          label="Email"
          type="email"
          name="email"
          autoComplete="email"
          isRequired
          value={form.email}
          onChange={set('email')}
          error={fields.email}
        />
        <TextField
          label="Password"
          type="password"
          name="password"
          autoComplete="new-password"
          isRequired
          value={form.password}
          onChange={set('password')}
          error={fields.password}
        />
        <p className="text-xs text-slate-500">At least 10 characters.</p>
        {error && <FormAlert>{error}</FormAlert>}
        <Button type="submit" isDisabled={pending} className="w-full">
          {pending ? 'Creating account...' : 'Create account'}
        </Button>
      </form>
      <p className="mt-6 text-center text-sm">
        Already a member?{' '}
        <AuthLink to="/login" className={authLinkLook}>
          Sign in
        </AuthLink>
      </p>
    </AuthCard>
  );
}
