/**
 * What signed-out visitors see at `/` when the app or the visitor's pages draw it (a visitor back from the sign-in
 * page, a session that ended): the same view the server renders and the browser hydrates
 * (shared/public-pages/views.tsx), with the working subscribe form.
 */
import { GuestSubscribeForm } from '../../components/guest-subscribe-form';
import { LANDING_SUBSCRIBE_ID, LandingView } from '../../../shared/public-pages/views';

export function LandingPage() {
  return <LandingView subscribe={<GuestSubscribeForm id={LANDING_SUBSCRIBE_ID} />} />;
}
