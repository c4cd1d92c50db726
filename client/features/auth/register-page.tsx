import { useState, type FormEvent } from 'react';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/text-field';
import { ApiError, errorMessage } from '../../lib/api';
import { register, useSignedIn } from './api';
import { AuthCard, type AuthNavigation } from './auth-card';

export function RegisterPage({ go, AuthLink }: AuthNavigation) {
  const signedIn = useSignedIn();
  const [form, setForm] = useState({ firstName: '', lastName: '', email: '', password: '' });
  const [fields, setFields] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const set = (key: keyof typeof form) => (value: string) => {
    setForm((current) => ({ ...current, [key]: value }));
    // Editing a field the server refused clears its message: the next submit is judged afresh.
    setFields(({ [key]: _edited, ...rest }) => rest);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setPending(true);
    setError(null);
    setFields({});
    try {
      signedIn(await register(form));
      await go('/');
    } catch (caught) {
      const refusedFields = caught instanceof ApiError ? caught.fields : {};
      setFields(refusedFields);
      // A refused field shows its message beside itself; the form-wide alert is for everything else.
      if (Object.keys(refusedFields).length === 0) setError(errorMessage(caught, 'Could not create your account. Please try again.'));
    } finally {
      setPending(false);
    }
  };

  return (
    <AuthCard title="Join the community">
      <form onSubmit={(event) => void submit(event)} className="space-y-4">
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
        {error && (
          <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-700 dark:bg-red-950 dark:text-red-300">
            {error}
          </p>
        )}
        <Button type="submit" isDisabled={pending} className="w-full">
          {pending ? 'Creating account...' : 'Create account'}
        </Button>
      </form>
      <p className="mt-6 text-center text-sm">
        Already a member?{' '}
        <AuthLink to="/login" className="font-medium text-brand-600 underline dark:text-amber-accent">
          Sign in
        </AuthLink>
      </p>
    </AuthCard>
  );
}
