import { useState } from 'react';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/text-field';
import { register, useSignedIn } from './api';
import { AuthCard, FormAlert, authLinkLook, useAuthForm, type AuthNavigation } from './auth-card';

export function RegisterPage({ go, AuthLink }: AuthNavigation) {
  const signedIn = useSignedIn();
  const [form, setForm] = useState({ firstName: '', lastName: '', email: '', password: '' });
  const { fields, error, pending, submit, edited } = useAuthForm('Could not create your account. Please try again.');
  const set = (key: keyof typeof form) => (value: string) => {
    setForm((current) => ({ ...current, [key]: value }));
    edited(key);
  };

  return (
    <AuthCard title="Join the community">
      <form
        onSubmit={(event) =>
          void submit(async () => {
            signedIn(await register(form));
            await go('/');
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
