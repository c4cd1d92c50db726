/** What signed-out visitors see. Join Community opens registration, Sign In the sign-in page (through /api/login, as the spec says). */
import { Icon } from '../../components/ui/icon';
import { GuestSubscribeForm } from '../../components/guest-subscribe-form';
import { MAIN_CONTENT_ID, SkipLink } from '../../components/skip-link';
import { usePrerenderedHandoff } from '../../lib/prerendered';
import { LANDING, LANDING_FOOTER, SITE_NAME } from '../../../shared/landing';

export function LandingPage() {
  const signIn = () => window.location.assign('/api/login');
  const join = () => window.location.assign('/register');
  usePrerenderedHandoff(true);
  return (
    <div className="min-h-screen bg-gradient-to-b from-brand-900 via-brand-800 to-slate-900 text-white">
      <SkipLink />
      <header className="mx-auto flex max-w-6xl items-center justify-between px-4 py-5">
        <p className="flex items-center gap-2 text-lg font-bold">{SITE_NAME}</p>
        <button
          type="button"
          onClick={signIn}
          className="min-h-11 rounded-md border border-white/40 px-4 text-sm font-medium hover:bg-white/10"
        >
          Sign In
        </button>
      </header>
      <main id={MAIN_CONTENT_ID} tabIndex={-1} className="mx-auto max-w-6xl px-4 pt-12 pb-20 outline-none">
        <p className="text-sm font-semibold tracking-widest text-amber-300 uppercase">{LANDING.eyebrow}</p>
        <h1 className="mt-3 max-w-3xl text-4xl font-bold leading-tight md:text-6xl">{LANDING.headline}</h1>
        <p className="mt-6 max-w-2xl text-lg text-slate-200">{LANDING.lead}</p>
        <div className="mt-8 flex flex-wrap gap-3">
          <button
            type="button"
            onClick={join}
            className="min-h-11 rounded-md bg-amber-400 px-6 font-semibold text-slate-950 hover:bg-amber-300"
          >
            Join Community
          </button>
          <button
            type="button"
            onClick={signIn}
            className="min-h-11 rounded-md border border-white/40 px-6 font-semibold hover:bg-white/10"
          >
            Sign In
          </button>
        </div>
        <ul className="mt-16 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {LANDING.features.map((feature) => (
            <li key={feature.title} className="rounded-xl bg-white/10 p-5 backdrop-blur">
              <Icon name={feature.icon} className="size-8 text-amber-300" />
              <h2 className="mt-3 text-lg font-semibold">{feature.title}</h2>
              <p className="mt-2 text-sm text-slate-200">{feature.text}</p>
            </li>
          ))}
        </ul>
        <GuestSubscribeForm />
      </main>
      <footer className="border-t border-white/10">
        <nav aria-label="About the site" className="mx-auto flex max-w-6xl flex-wrap gap-x-6 gap-y-2 px-4 py-6 text-sm text-slate-200">
          {LANDING_FOOTER.map(({ label, href }) => (
            <a key={href} href={href} className="inline-flex min-h-6 items-center underline-offset-4 hover:text-white hover:underline">
              {label}
            </a>
          ))}
        </nav>
      </footer>
    </div>
  );
}
