/**
 * One template per kind of subscription mail (confirmation, new blog post, new feed post, digest), written with
 * react-email's components (tables and inline styles that mail clients render) and rendered server-side. The plain
 * text part is derived from the same HTML, so the two never disagree. User content (titles, excerpts, post text)
 * goes in as React text children, which React escapes.
 */
import { Fragment, type ReactElement, type ReactNode } from 'react';
import { render, toPlainText } from '@react-email/render';
import { Html } from '@react-email/html';
import { Head } from '@react-email/head';
import { Body } from '@react-email/body';
import { Container } from '@react-email/container';
import { Section } from '@react-email/section';
import { Heading } from '@react-email/heading';
import { Text } from '@react-email/text';
import { Link } from '@react-email/link';
import { Hr } from '@react-email/hr';
import { Preview } from '@react-email/preview';
import { FREQUENCY_LABELS, SUBSCRIPTION_TYPE_LABELS, type Frequency, type SubscriptionType } from '../../shared/subscriptions/constants';
import { truncate } from '../../shared/text';

const SITE = 'Broadcast History Community';
/** A feed post is shown whole up to this length; longer ones link to the site for the rest. */
const POST_TEXT_MAX = 600;

export interface MailLinks {
  site: string;
  /** The unsubscribe page of this subscription (the one-click POST address goes in the List-Unsubscribe header). */
  unsubscribe: string;
  /** The subscription settings page. */
  manage: string;
}

export interface BlogItem {
  title: string;
  excerpt: string;
  url: string;
}
export interface FeedItem {
  text: string;
  url: string;
}
/** A reply in a topic the member watches, with the address that answers it in the topic (a mailto: link). */
export interface ReplyItem {
  topic: string;
  author: string;
  text: string;
  url: string;
  replyBy: string;
}
export interface EventItem {
  title: string;
  when: string;
  url: string;
}

export type MailContent =
  | { kind: 'confirmation'; subscriptionType: SubscriptionType; frequency: Frequency; confirmUrl: string }
  | { kind: 'blog'; post: BlogItem }
  | { kind: 'post'; post: FeedItem }
  | {
      kind: 'digest';
      frequency: Exclude<Frequency, 'immediate'>;
      blog: BlogItem[];
      posts: FeedItem[];
      events: EventItem[];
      replies?: ReplyItem[];
    };

export interface RenderedMail {
  subject: string;
  html: string;
  text: string;
}

const styles = {
  body: { backgroundColor: '#f4f1ea', fontFamily: 'Georgia, "Times New Roman", serif', color: '#1f1d1a' },
  container: { backgroundColor: '#ffffff', padding: '24px', maxWidth: '600px' },
  heading: { fontSize: '22px', margin: '0 0 12px' },
  section: { fontSize: '18px', margin: '20px 0 8px' },
  link: { color: '#8a3b12' },
  footer: { fontSize: '12px', color: '#6b665e' },
} as const;

function Layout({ preview, children, links }: { preview: string; children: ReactNode; links: MailLinks | null }) {
  return (
    <Html lang="en">
      <Head />
      <Preview>{preview}</Preview>
      <Body style={styles.body}>
        <Container style={styles.container}>
          <Text>
            <Link href={links?.site} style={styles.link}>
              {SITE}
            </Link>
          </Text>
          {children}
          <Hr />
          {links ? (
            <Text style={styles.footer}>
              You receive this because you subscribed at {SITE}.{' '}
              <Link href={links.manage} style={styles.link}>
                Manage subscriptions
              </Link>{' '}
              ·{' '}
              <Link href={links.unsubscribe} style={styles.link}>
                Unsubscribe
              </Link>
            </Text>
          ) : null}
        </Container>
      </Body>
    </Html>
  );
}

/** One part of a digest, left out when it has nothing. A mail is rendered once and never updated, so entries are keyed by place. */
function DigestSection({ title, entries }: { title: string; entries: ReactElement[] }) {
  if (entries.length === 0) return null;
  return (
    <Section>
      <Heading as="h2" style={styles.section}>
        {title}
      </Heading>
      {entries.map((entry, i) => (
        <Fragment key={i}>{entry}</Fragment>
      ))}
    </Section>
  );
}

function BlogEntry({ post }: { post: BlogItem }) {
  return (
    <Section>
      <Heading as="h3" style={{ fontSize: '17px', margin: '12px 0 4px' }}>
        <Link href={post.url} style={styles.link}>
          {post.title}
        </Link>
      </Heading>
      {post.excerpt ? <Text style={{ margin: '0 0 8px' }}>{post.excerpt}</Text> : null}
    </Section>
  );
}

function FeedEntry({ post }: { post: FeedItem }) {
  return (
    <Section>
      <Text style={{ margin: '8px 0 4px' }}>
        {truncate(post.text, POST_TEXT_MAX)
          .split('\n')
          .map((line, i) => (i === 0 ? line : [<br key={i} />, line]))}
      </Text>
      <Text style={{ margin: '0 0 8px' }}>
        <Link href={post.url} style={styles.link}>
          Read it in the newsfeed
        </Link>
      </Text>
    </Section>
  );
}

function ReplyEntry({ reply }: { reply: ReplyItem }) {
  return (
    <Section>
      <Text style={{ margin: '8px 0 4px' }}>
        <strong>{reply.author}</strong> in <strong>{reply.topic}</strong>:
      </Text>
      <Text style={{ margin: '0 0 4px' }}>{truncate(reply.text, POST_TEXT_MAX)}</Text>
      <Text style={{ margin: '0 0 8px' }}>
        <Link href={reply.url} style={styles.link}>
          Read it in the topic
        </Link>{' '}
        ·{' '}
        <Link href={reply.replyBy} style={styles.link}>
          Reply by e-mail
        </Link>
      </Text>
    </Section>
  );
}

function EventEntry({ event }: { event: EventItem }) {
  return (
    <Text style={{ margin: '8px 0' }}>
      <Link href={event.url} style={styles.link}>
        {event.title}
      </Link>
      <br />
      {event.when}
    </Text>
  );
}

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The subject line of a mail; also its preview text. */
export function subjectOf(content: MailContent): string {
  switch (content.kind) {
    case 'confirmation':
      return `Confirm your subscription to ${SITE}`;
    case 'blog':
      return `New on the blog: ${truncate(content.post.title, 120)}`;
    case 'post':
      return `New in the newsfeed: ${truncate(content.post.text.replace(/\s+/g, ' '), 80)}`;
    case 'digest': {
      const parts = [
        content.blog.length ? count(content.blog.length, 'blog post', 'blog posts') : '',
        content.posts.length ? count(content.posts.length, 'feed post', 'feed posts') : '',
        content.events.length ? count(content.events.length, 'upcoming event', 'upcoming events') : '',
        content.replies?.length ? count(content.replies.length, 'reply in topics you watch', 'replies in topics you watch') : '',
      ].filter(Boolean);
      return `Your ${content.frequency} digest from ${SITE}: ${parts.join(', ')}`;
    }
  }
}

function MailBody({ content, links }: { content: MailContent; links: MailLinks }) {
  const subject = subjectOf(content);
  switch (content.kind) {
    case 'confirmation':
      // No unsubscribe footer: nothing is subscribed until the link is used, and ignoring the mail is the way out.
      return (
        <Layout preview={subject} links={null}>
          <Heading style={styles.heading}>Please confirm your subscription</Heading>
          <Text>
            Someone, hopefully you, asked to receive {SUBSCRIPTION_TYPE_LABELS[content.subscriptionType]} from {SITE} by e-mail (
            {FREQUENCY_LABELS[content.frequency]}). Nothing will be sent until you confirm.
          </Text>
          <Text>
            <Link href={content.confirmUrl} style={styles.link}>
              Confirm my subscription
            </Link>
          </Text>
          <Text style={styles.footer}>If you did not ask for this, ignore this message and you will hear nothing more from us.</Text>
        </Layout>
      );
    case 'blog':
      return (
        <Layout preview={subject} links={links}>
          <Heading style={styles.heading}>A new blog post</Heading>
          <BlogEntry post={content.post} />
        </Layout>
      );
    case 'post':
      return (
        <Layout preview={subject} links={links}>
          <Heading style={styles.heading}>A new post in the newsfeed</Heading>
          <FeedEntry post={content.post} />
        </Layout>
      );
    case 'digest':
      return (
        <Layout preview={subject} links={links}>
          <Heading style={styles.heading}>Your {content.frequency} digest</Heading>
          <DigestSection title="From the blog" entries={content.blog.map((post) => <BlogEntry post={post} />)} />
          <DigestSection title="In the newsfeed" entries={content.posts.map((post) => <FeedEntry post={post} />)} />
          <DigestSection title="Upcoming events" entries={content.events.map((event) => <EventEntry event={event} />)} />
          <DigestSection title="In topics you watch" entries={(content.replies ?? []).map((reply) => <ReplyEntry reply={reply} />)} />
        </Layout>
      );
  }
}

export async function renderMail(content: MailContent, links: MailLinks): Promise<RenderedMail> {
  const html = await render(<MailBody content={content} links={links} />);
  return { subject: subjectOf(content), html, text: toPlainText(html) };
}
