/**
 * The member's own account (/account, docs/domain/members.md#own-account): picture, name and bio, e-mail address,
 * password, the browsers they are signed in on, their data to take (#export) and leaving (#erasure). Each section saves on its own; the server's message for a
 * field shows beside it, everything else in a toast.
 */
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { FieldError, FileTrigger, Label, Radio, RadioGroup, TextArea, TextField as AriaTextField } from 'react-aria-components';
import { Avatar } from '../../components/ui/avatar';
import { Badge } from '../../components/ui/badge';
import { Button, buttonLook } from '../../components/ui/button';
import { EmptyState, PageHeader } from '../../components/ui/page-header';
import { Spinner } from '../../components/ui/spinner';
import { TextField } from '../../components/ui/text-field';
import { useToast } from '../../components/ui/toast';
import { ApiError, errorMessage } from '../../lib/api';
import { useCurrentUser, type CurrentUser } from '../../lib/current-user';
import { relativeTime } from '../../lib/relative-time';
import { BIO_MAX_LENGTH } from '../../../shared/members/member-stream';
import { PASSWORD_MIN_LENGTH, type OpenSession } from '../../../shared/members/schemas';
import type { ErasedContent } from '../../../shared/members/member-stream';
import {
  useChangePassword,
  useChangePicture,
  useEndOtherSessions,
  useEndSession,
  useEraseAccount,
  useRequestEmailChange,
  useSessions,
  useUpdateProfile,
} from './api';

const card = 'rounded-xl border border-slate-200 bg-white p-4 md:p-6 dark:border-slate-800 dark:bg-slate-900';

function Section({ id, title, description, children }: { id: string; title: string; description?: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className={card}>
      <h2 id={id} className="text-lg font-semibold">
        {title}
      </h2>
      {description && <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{description}</p>}
      <div className="mt-4">{children}</div>
    </section>
  );
}

/**
 * Fields and their server messages; editing a refused field clears its message. `submit(send, failed)` sends the form:
 * a field the server refused shows its message beside itself, anything else goes to a toast titled `failed.title`.
 */
function useForm<T extends Record<string, string>>(initial: T) {
  const [values, setValues] = useState(initial);
  const [fields, setFields] = useState<Record<string, string>>({});
  const { toast } = useToast();
  const set = (key: keyof T & string) => (value: string) => {
    setValues((current) => ({ ...current, [key]: value }));
    setFields(({ [key]: _edited, ...rest }) => rest);
  };
  const submit = (send: () => Promise<void>, failed: { title: string; fallback: string }) => (event: FormEvent) => {
    event.preventDefault();
    setFields({});
    // Awaited rather than a mutation's callbacks: those do not run once the page is gone (as after erasure).
    send().catch((caught: unknown) => {
      const refused = caught instanceof ApiError ? caught.fields : {};
      setFields(refused);
      if (Object.keys(refused).length === 0)
        toast({ title: failed.title, description: errorMessage(caught, failed.fallback), variant: 'destructive' });
    });
  };
  /** What ties a field to the form: its name, value, changes and the server's message. */
  const field = (key: keyof T & string) => ({ name: key, value: values[key], onChange: set(key), error: fields[key] });
  return { values, setValues, fields, set, field, submit };
}

/** The password that proves it is the account's owner asking (a new address, a new password, deletion). */
function CurrentPasswordField(props: {
  label?: string;
  name: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
}) {
  const { label = 'Current password', ...field } = props;
  return <TextField label={label} type="password" autoComplete="current-password" isRequired {...field} />;
}

const EMAIL_OUTCOMES = {
  changed: { title: 'E-mail address changed', description: 'Sign in with your new address from now on.' },
  taken: { title: 'E-mail address not changed', description: 'Another account uses that address now.', variant: 'destructive' as const },
  invalid: {
    title: 'E-mail address not changed',
    description: 'That link has expired or was used already. Ask for a new one below.',
    variant: 'destructive' as const,
  },
};

export function AccountPage() {
  const { data: user } = useCurrentUser();
  const { email: outcome } = useSearch({ from: '/shell/account' });
  const navigate = useNavigate();
  const { toast } = useToast();
  // The e-mail change link lands here with its outcome: say it once, then drop it from the address.
  useEffect(() => {
    if (!outcome) return;
    toast(EMAIL_OUTCOMES[outcome]);
    void navigate({ to: '/account', search: {}, replace: true });
    // Only the outcome matters: toast and navigate are new functions on every render.
  }, [outcome]);

  if (!user) return <Spinner label="Loading your account" />;
  return (
    <div className="mx-auto max-w-3xl">
      <PageHeader title="Your account" description="Your profile, sign-in details and the browsers you are signed in on." />
      <div className="space-y-6">
        <PictureSection user={user} />
        <ProfileSection user={user} />
        <EmailSection user={user} />
        <PasswordSection />
        <SessionsSection />
        <DataSection />
        <LeaveSection />
      </div>
    </div>
  );
}

function PictureSection({ user }: { user: CurrentUser }) {
  const change = useChangePicture();
  const { toast } = useToast();
  const [error, setError] = useState<string | null>(null);
  const choose = (files: FileList | null) => {
    const file = files?.[0];
    if (!file) return;
    setError(null);
    change.mutate(file, {
      onSuccess: () => toast({ title: 'Picture updated' }),
      onError: (caught) => setError(errorMessage(caught, 'Could not use that picture. Please try another one.')),
    });
  };
  return (
    <Section
      id="account-picture"
      title="Picture"
      description="A JPEG, PNG, WebP or HEIC image. Others see it beside your posts and on your profile."
    >
      <div className="flex flex-wrap items-center gap-4">
        <Avatar name={user.name} src={user.avatar} size="lg" />
        <FileTrigger acceptedFileTypes={['image/jpeg', 'image/png', 'image/webp', 'image/heic', 'image/heif']} onSelect={choose}>
          <Button variant="secondary" isDisabled={change.isPending}>
            {change.isPending ? 'Uploading…' : user.avatar ? 'Change picture' : 'Upload picture'}
          </Button>
        </FileTrigger>
      </div>
      {error && (
        <p role="alert" className="mt-3 text-sm text-red-600 dark:text-red-400">
          {error}
        </p>
      )}
    </Section>
  );
}

function ProfileSection({ user }: { user: CurrentUser }) {
  const form = useForm({ firstName: user.firstName, lastName: user.lastName, bio: user.bio ?? '' });
  const update = useUpdateProfile();
  const { toast } = useToast();
  const { values } = form;
  const unchanged = values.firstName === user.firstName && values.lastName === user.lastName && values.bio === (user.bio ?? '');
  const submit = form.submit(
    async () => {
      const saved = await update.mutateAsync(values);
      form.setValues({ firstName: saved.firstName, lastName: saved.lastName, bio: saved.bio });
      toast({ title: 'Profile saved' });
    },
    { title: 'Profile not saved', fallback: 'Could not save your profile. Please try again.' },
  );
  return (
    <Section id="account-profile" title="Name and bio">
      <form onSubmit={submit} className="space-y-4">
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField label="First name" autoComplete="given-name" isRequired {...form.field('firstName')} />
          <TextField label="Last name" autoComplete="family-name" isRequired {...form.field('lastName')} />
        </div>
        <AriaTextField
          value={values.bio}
          onChange={form.set('bio')}
          validationBehavior="aria"
          isInvalid={Boolean(form.fields.bio) || values.bio.length > BIO_MAX_LENGTH}
          className="flex flex-col gap-1"
        >
          <Label className="text-sm font-medium">Bio</Label>
          <TextArea
            name="bio"
            rows={4}
            placeholder="A few words about you and your interest in broadcasting history"
            className="rounded-md border border-slate-300 bg-white px-3 py-2 text-base outline-none focus:border-brand-600 focus:ring-2 focus:ring-brand-600/30 invalid:border-red-600 dark:border-slate-600 dark:bg-slate-900"
          />
          <p className={`text-xs ${values.bio.length > BIO_MAX_LENGTH ? 'text-red-600 dark:text-red-400' : 'text-slate-500'}`}>
            {values.bio.length}/{BIO_MAX_LENGTH} characters. Plain text.
          </p>
          <FieldError className="text-sm text-red-600 dark:text-red-400">{form.fields.bio}</FieldError>
        </AriaTextField>
        <Button type="submit" isDisabled={update.isPending || unchanged}>
          {update.isPending ? 'Saving…' : 'Save profile'}
        </Button>
      </form>
    </Section>
  );
}

function EmailSection({ user }: { user: CurrentUser }) {
  const form = useForm({ email: '', currentPassword: '' });
  const request = useRequestEmailChange();
  const { toast } = useToast();
  const [sent, setSent] = useState<string | null>(null);
  const submit = form.submit(
    async () => {
      setSent(null);
      const { message } = await request.mutateAsync(form.values);
      setSent(message);
      form.setValues({ email: '', currentPassword: '' });
      toast({ title: 'Check your inbox', description: message });
    },
    { title: 'Link not sent', fallback: 'Could not send the link. Please try again.' },
  );
  return (
    <Section
      id="account-email"
      title="E-mail address"
      description="We send a link to the new address; the change happens when you open it, and signs you out on every other browser."
    >
      <p className="mb-4 text-sm">
        Current address: <span className="font-medium break-all">{user.email}</span>
      </p>
      <form onSubmit={submit} className="space-y-4">
        <TextField label="New e-mail address" type="email" autoComplete="email" isRequired {...form.field('email')} />
        <CurrentPasswordField {...form.field('currentPassword')} />
        <Button type="submit" isDisabled={request.isPending || form.values.email.trim() === '' || !form.values.currentPassword}>
          {request.isPending ? 'Sending…' : 'Send confirmation link'}
        </Button>
      </form>
      {sent && (
        <p role="status" className="mt-4 rounded-md bg-green-50 p-3 text-sm text-green-800 dark:bg-green-950 dark:text-green-200">
          {sent}
        </p>
      )}
    </Section>
  );
}

function PasswordSection() {
  const form = useForm({ currentPassword: '', newPassword: '' });
  const change = useChangePassword();
  const { toast } = useToast();
  const submit = form.submit(
    async () => {
      await change.mutateAsync(form.values);
      form.setValues({ currentPassword: '', newPassword: '' });
      toast({ title: 'Password changed', description: 'You were signed out on every other browser.' });
    },
    { title: 'Password not changed', fallback: 'Could not change your password. Please try again.' },
  );
  return (
    <Section id="account-password" title="Password" description="Changing it signs you out on every other browser.">
      <form onSubmit={submit} className="space-y-4">
        <CurrentPasswordField {...form.field('currentPassword')} />
        <div>
          <TextField label="New password" type="password" autoComplete="new-password" isRequired {...form.field('newPassword')} />
          <p className="mt-1 text-xs text-slate-500">At least {PASSWORD_MIN_LENGTH} characters.</p>
        </div>
        <Button type="submit" isDisabled={change.isPending || !form.values.currentPassword || !form.values.newPassword}>
          {change.isPending ? 'Changing…' : 'Change password'}
        </Button>
      </form>
    </Section>
  );
}

const signedInDate = (iso: string) => new Date(iso).toLocaleDateString('en-US', { month: 'long', day: 'numeric', year: 'numeric' });

function SessionRow({ session }: { session: OpenSession }) {
  const end = useEndSession();
  const { toast } = useToast();
  const name = session.userAgent ?? 'Unknown browser';
  const ended = () =>
    end.mutate(session.id, {
      onSuccess: () => toast({ title: 'Session ended', description: `${name} is signed out.` }),
      onError: (caught) =>
        toast({ title: 'Session not ended', description: errorMessage(caught, 'Please try again.'), variant: 'destructive' }),
    });
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 py-3 first:pt-0 last:pb-0">
      <div className="min-w-0">
        <p className="flex flex-wrap items-center gap-2 font-medium">
          <span className="break-words">{name}</span>
          {session.current && (
            <Badge variant="secondary" className="normal-case">
              This device
            </Badge>
          )}
        </p>
        <p className="text-sm text-slate-600 dark:text-slate-400">
          {session.signedInAt ? `Signed in ${signedInDate(session.signedInAt)}` : 'Signed in earlier'}
          {!session.current && session.lastSeenAt
            ? ` · active ${relativeTime(session.lastSeenAt)}`
            : session.current
              ? ' · active now'
              : ''}
        </p>
      </div>
      {!session.current && (
        <Button variant="secondary" onPress={ended} isDisabled={end.isPending} aria-label={`End the session on ${name}`}>
          {end.isPending ? 'Ending…' : 'End'}
        </Button>
      )}
    </li>
  );
}

function SessionsSection() {
  const sessions = useSessions();
  const endOthers = useEndOtherSessions();
  const { toast } = useToast();
  const others = sessions.data?.items.filter((session) => !session.current).length ?? 0;
  const signOutElsewhere = () =>
    endOthers.mutate(undefined, {
      onSuccess: ({ ended }) =>
        toast({
          title: 'Signed out everywhere else',
          description: ended === 1 ? 'One other session ended.' : `${ended} other sessions ended.`,
        }),
      onError: (caught) =>
        toast({ title: 'Sessions not ended', description: errorMessage(caught, 'Please try again.'), variant: 'destructive' }),
    });
  return (
    <Section
      id="account-sessions"
      title="Where you are signed in"
      description="End a session you do not recognise, or every session but this one."
    >
      {sessions.isPending ? (
        <Spinner label="Loading your sessions" />
      ) : sessions.isError ? (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400">
          Could not load your sessions. Please refresh the page.
        </p>
      ) : (
        <>
          <ul className="divide-y divide-slate-200 dark:divide-slate-800">
            {sessions.data.items.map((session) => (
              <SessionRow key={session.id} session={session} />
            ))}
          </ul>
          {others === 0 ? (
            <div className="mt-4">
              <EmptyState title="No other sessions">You are signed in on this browser only.</EmptyState>
            </div>
          ) : (
            <Button variant="destructive" className="mt-4" onPress={signOutElsewhere} isDisabled={endOthers.isPending}>
              {endOthers.isPending ? 'Signing out…' : 'Sign out everywhere else'}
            </Button>
          )}
        </>
      )}
    </Section>
  );
}

function DataSection() {
  return (
    <Section
      id="account-data"
      title="Your data"
      description="Everything the site holds about you, as a JSON file: your account, your subscriptions, where you are signed in, and every change you made or that concerns you."
    >
      <a href="/api/me/export" download className={buttonLook('secondary')}>
        Download your data
      </a>
    </Section>
  );
}

const CONTENT_CHOICES: { value: ErasedContent; label: string; description: string }[] = [
  {
    value: 'kept',
    label: 'Keep what I wrote',
    description: 'Your posts, comments, events and blog posts stay, shown as by “Former member”.',
  },
  { value: 'removed', label: 'Remove what I wrote', description: 'Your posts, comments, events and blog posts go with your account.' },
];

function LeaveSection() {
  const [content, setContent] = useState<ErasedContent>('kept');
  const form = useForm({ password: '' });
  const erase = useEraseAccount();
  const navigate = useNavigate();
  const { toast } = useToast();
  const submit = form.submit(
    async () => {
      await erase.mutateAsync({ password: form.values.password, content });
      toast({ title: 'Your account was deleted', description: 'Thank you for being part of the community.' });
      void navigate({ to: '/' });
    },
    { title: 'Account not deleted', fallback: 'Could not delete your account. Please try again.' },
  );
  return (
    <Section
      id="account-leave"
      title="Delete your account"
      description="Your account, profile, picture, subscriptions, bookmarks and notifications are erased for good, and you are signed out everywhere. This cannot be undone."
    >
      <form onSubmit={submit} className="space-y-4">
        <RadioGroup value={content} onChange={(value) => setContent(value as ErasedContent)} className="space-y-2">
          <Label className="text-sm font-medium">What you wrote</Label>
          {CONTENT_CHOICES.map((choice) => (
            <Radio
              key={choice.value}
              value={choice.value}
              className="group flex min-h-11 cursor-pointer items-start gap-3 rounded-md p-2 outline-none data-[focus-visible]:ring-2 data-[focus-visible]:ring-amber-500"
            >
              <span
                aria-hidden="true"
                className="mt-0.5 flex size-5 shrink-0 items-center justify-center rounded-full border-2 border-slate-400 group-data-[selected]:border-red-600"
              >
                <span className="size-2.5 rounded-full bg-red-600 opacity-0 group-data-[selected]:opacity-100" />
              </span>
              <span>
                <span className="block font-medium">{choice.label}</span>
                <span className="block text-sm text-slate-600 dark:text-slate-400">{choice.description}</span>
              </span>
            </Radio>
          ))}
        </RadioGroup>
        <CurrentPasswordField label="Your password" {...form.field('password')} />
        <Button type="submit" variant="destructive" isDisabled={erase.isPending || !form.values.password}>
          {erase.isPending ? 'Deleting…' : 'Delete my account'}
        </Button>
      </form>
    </Section>
  );
}
