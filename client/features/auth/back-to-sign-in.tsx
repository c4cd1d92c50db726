import { Link } from '@tanstack/react-router';
import { authLinkLook } from './auth-card';

/** "Back to sign in" on the app's own sign-in pages (forgotten password, new password). */
export function BackToSignIn() {
  return (
    <Link to="/login" className={authLinkLook}>
      Back to sign in
    </Link>
  );
}
