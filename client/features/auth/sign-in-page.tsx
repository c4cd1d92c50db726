import { useState, type FormEvent } from 'react';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/text-field';
import { errorMessage } from '../../lib/api';
import { requestSignInLink, signIn as signInWith, useSignedIn } from './api';
import { AuthCard, FormAlert, FormNotice, authLinkLook, type AuthNavigation } from './auth-card';

/**
 * `search.redirect`: the page to come back to (a path of this site); `search.error`: a used or expired sign-in link;
 * `search.reset`: the member just chose a new password (/reset-password/{token}).
 */
export function SignInPage({
  search,
  go,
  AuthLink,
}: AuthNavigation & { search: { error?: 'link' | undefined; redirect?: string | undefined; reset?: 'done' | undefined } }) {
  const signedIn = useSignedIn();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(search.error === 'link' ? 'That sign-in link has expired or was already used.' : null);
  const [notice, setNotice] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const signIn = async (event: FormEvent) => {
    event.preventDefault();
    setPending(true);
    setError(null);
    try {
      signedIn(await signInWith({ email, password }));
      // A path of this site only (the route's search rule): never a way off it.
      await go(search.redirect ?? '/');
    } catch (caught) {
      setError(errorMessage(caught, 'Could not sign in. Please try again.'));
    } finally {
      setPending(false);
    }
  };

  const sendLink = async () => {
    setError(null);
    if (!email) {
      setError('Enter your e-mail address first.');
      return;
    }
    try {
      setNotice((await requestSignInLink(email)).message);
    } catch (caught) {
      setError(errorMessage(caught, 'Could not send the link. Please try again.'));
    }
  };

  return (
    <AuthCard title="Sign in">
      {search.reset === 'done' && (
        <FormNotice className="mb-4">
          Your password was changed and you were signed out everywhere. Sign in with your new password.
        </FormNotice>
      )}
      <form onSubmit={(event) => void signIn(event)} className="space-y-4">
        <TextField label="Email" type="email" name="email" autoComplete="email" isRequired value={email} onChange={setEmail} />
        <div className="space-y-1">
          <TextField
            label="Password"
            type="password"
            name="password"
            autoComplete="current-password"
            value={password}
            onChange={setPassword}
          />
          <p className="text-right text-sm">
            <AuthLink to="/forgot-password" className={`inline-block py-2 ${authLinkLook}`}>
              Forgot your password?
            </AuthLink>
          </p>
        </div>
        {error && <FormAlert>{error}</FormAlert>}
        {notice && <FormNotice>{notice}</FormNotice>}
        <Button type="submit" isDisabled={pending || !email || !password} className="w-full">
          {pending ? 'Signing in...' : 'Sign in'}
        </Button>
        <Button type="button" variant="secondary" onPress={() => void sendLink()} className="w-full">
          E-mail me a sign-in link
        </Button>
      </form>
      <p className="mt-6 text-center text-sm">
        New here?{' '}
        <AuthLink to="/register" className={authLinkLook}>
          Join the community
        </AuthLink>
      </p>
    </AuthCard>
  );
}
