/**
 * What a mail to a topic's watcher says, decided when it is sent: the reply as it then is, with a Reply-To address
 * whose token takes the member's answer back into the topic (server/mail-replies/inbound.ts), RFC 8058 one-click
 * unsubscribe that mutes the topic, and In-Reply-To/References naming the topic, so mail programs thread a topic's
 * mails together. Null when there is nothing to send any more: the reply was deleted, the topic removed, the member
 * stopped watching, or they are gone.
 */
import { toPlainText } from '@react-email/render';
import type { DocumentStore } from '../../platform/document-store/port';
import { issueReplyTokens, replyAddress } from '../../platform/mail/reply-tokens';
import { displayName } from '../../shared/members/display';
import { escapeHtml } from '../../shared/text';
import type { OutboxCause } from '../subscriptions/outbox';
import { mailDiscussionPeople, mailReplies, mailTopics } from './watcher-mail';
import { htmlToText } from '../../shared/blog/excerpt';
import type { ReplyItem } from '../subscriptions/templates';

type ReplyCause = Extract<OutboxCause, { kind: 'reply' }>;

const SITE = 'Broadcast History Community';

export interface ReplyMessage {
  to: string;
  subject: string;
  html: string;
  text: string;
  replyTo: { name: string; address: string };
  inReplyTo: string;
  references: string[];
  headers: Record<string, string>;
}

/** The thread every mail of a topic answers: an id that is never sent itself, the same for every watcher. */
export const topicThreadId = (topicId: string, publicUrl: string) => `<topic-${topicId}@${new URL(publicUrl).hostname}>`;

/** The reply's place on the site: the topic page scrolled to it (client/features/discussions/topic-page.tsx). */
export const replyUrl = (publicUrl: string, topicId: string, replyId: string) =>
  `${publicUrl}/discussions/topics/${encodeURIComponent(topicId)}#reply-${encodeURIComponent(replyId)}`;

/** The one-click unsubscribe address (POST, RFC 8058): it mutes the topic for the token's member. */
export const muteUrl = (publicUrl: string, token: string) => `${publicUrl}/api/discussions/unsubscribe/${token}`;

export async function replyMessage(
  store: DocumentStore,
  cause: ReplyCause,
  { publicUrl, replyDomain, now }: { publicUrl: string; replyDomain: string; now: Date },
): Promise<ReplyMessage | null> {
  const [topic, reply, person] = await Promise.all([
    mailTopics(store).findOne({ _id: cause.topicId }),
    mailReplies(store).findOne({ _id: cause.replyId }),
    mailDiscussionPeople(store).findOne({ _id: cause.memberId }),
  ]);
  if (!topic || topic.removed || !reply || reply.deleted || !person) return null;
  if (topic.levels[cause.memberId] !== 'watching') return null;
  const author = await mailDiscussionPeople(store).findOne({ _id: reply.authorId });
  const authorName = author ? displayName(author) : 'Former member';
  const tokens = await issueReplyTokens(store, { memberId: cause.memberId, topicId: cause.topicId, now });
  const link = replyUrl(publicUrl, cause.topicId, cause.replyId);
  const topicLink = `${publicUrl}/discussions/topics/${encodeURIComponent(cause.topicId)}`;
  const title = escapeHtml(topic.title);
  const html = [
    '<!DOCTYPE html><html lang="en"><body style="background-color:#f4f1ea;font-family:Georgia,\'Times New Roman\',serif;color:#1f1d1a">',
    '<div style="background-color:#ffffff;padding:24px;max-width:600px;margin:0 auto">',
    `<p style="margin:0 0 12px"><strong>${escapeHtml(authorName)}</strong> replied in <a href="${escapeHtml(topicLink)}" style="color:#8a3b12">${title}</a>:</p>`,
    // Sanitised when it was posted (the one gate, shared/blog/sanitize.ts), like every rich text shown on the site.
    `<div style="border-left:3px solid #d6cfc2;padding-left:12px">${reply.content}</div>`,
    `<p><a href="${escapeHtml(link)}" style="color:#8a3b12">Read it in the topic</a></p>`,
    '<hr>',
    '<p style="font-size:12px;color:#6b665e">Reply to this e-mail to answer in the topic (write above the quoted message). ',
    `You receive this because you watch this topic at ${SITE}. To stop, unsubscribe from this topic in your mail program, `,
    `or choose “Normal” or “Muted” on the <a href="${escapeHtml(topicLink)}" style="color:#8a3b12">topic’s page</a>.</p>`,
    '</div></body></html>',
  ].join('');
  return {
    to: person.email,
    subject: `Re: ${topic.title}`,
    html,
    text: toPlainText(html),
    replyTo: { name: SITE, address: replyAddress(tokens.reply, replyDomain) },
    inReplyTo: topicThreadId(cause.topicId, publicUrl),
    references: [topicThreadId(cause.topicId, publicUrl)],
    headers: {
      'List-Unsubscribe': `<${muteUrl(publicUrl, tokens.unsubscribe)}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      // Automatic answers (out of office) should not come back at all (RFC 3834).
      'Auto-Submitted': 'auto-generated',
      'X-Auto-Response-Suppress': 'OOF, AutoReply',
    },
  };
}

/**
 * The replies of a digest, as its "In topics you watch" part shows them: each still there, in a topic not removed
 * that the member still watches, with a "Reply by e-mail" address of its topic (one fresh token per topic and mail).
 */
export async function digestReplies(
  store: DocumentStore,
  memberId: string,
  replyIds: string[],
  { publicUrl, replyDomain, now }: { publicUrl: string; replyDomain: string; now: Date },
): Promise<ReplyItem[]> {
  const replies = (await mailReplies(store).find({ _id: { $in: replyIds }, deleted: false })).sort(
    (a, b) => replyIds.indexOf(a._id) - replyIds.indexOf(b._id),
  );
  const topics = new Map(
    (await mailTopics(store).find({ _id: { $in: [...new Set(replies.map((reply) => reply.topicId))] } }))
      .filter((topic) => !topic.removed && topic.levels[memberId] === 'watching')
      .map((topic) => [topic._id, topic]),
  );
  const authors = new Map(
    (await mailDiscussionPeople(store).find({ _id: { $in: [...new Set(replies.map((reply) => reply.authorId))] } })).map((person) => [
      person._id,
      displayName(person),
    ]),
  );
  const addresses = new Map<string, string>();
  const items: ReplyItem[] = [];
  for (const reply of replies) {
    const topic = topics.get(reply.topicId);
    if (!topic) continue;
    let address = addresses.get(topic._id);
    if (!address) {
      const tokens = await issueReplyTokens(store, { memberId, topicId: topic._id, now });
      address = replyAddress(tokens.reply, replyDomain);
      addresses.set(topic._id, address);
    }
    items.push({
      topic: topic.title,
      author: authors.get(reply.authorId) ?? 'Former member',
      text: htmlToText(reply.content),
      url: replyUrl(publicUrl, topic._id, reply._id),
      replyBy: `mailto:${address}?subject=${encodeURIComponent(`Re: ${topic.title}`)}`,
    });
  }
  return items;
}
