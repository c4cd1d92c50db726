/**
 * The tokens of discussion mail (docs/domain/discussions-mail.md#reply-by-mail): each mail to a watcher carries two, made at
 * random when it is sent — one in its Reply-To address (`reply+{token}@REPLY_DOMAIN`), which the inbound role takes a
 * reply by, and one in its RFC 8058 one-click unsubscribe address, which mutes the topic. Each is bound to the member
 * and the topic; only its SHA-256 is stored (`mail_reply_tokens`, a collection of no projection, so no rebuild drops
 * it), and neither is ever logged. A resent mail carries new ones; the old ones keep working.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { DocumentStore } from '../document-store/port';

export const MAIL_REPLY_TOKENS = 'mail_reply_tokens';

/** 32 random bytes in base64url. Lowercase-safe is not needed: the local part of an address keeps its case. */
export const REPLY_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/u;

export type ReplyTokenPurpose = 'reply' | 'unsubscribe';

export type ReplyTokenDocument = {
  /** SHA-256 of the token, hex. */
  _id: string;
  purpose: ReplyTokenPurpose;
  memberId: string;
  topicId: string;
  createdAt: string;
};

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
const tokens = (store: DocumentStore) => store.collection<ReplyTokenDocument>(MAIL_REPLY_TOKENS);

/** A fresh reply token and unsubscribe token for one mail to `memberId` about `topicId`; their hashes are stored. */
export async function issueReplyTokens(
  store: DocumentStore,
  { memberId, topicId, now }: { memberId: string; topicId: string; now: Date },
): Promise<Record<ReplyTokenPurpose, string>> {
  const made = { reply: randomBytes(32).toString('base64url'), unsubscribe: randomBytes(32).toString('base64url') };
  const createdAt = now.toISOString();
  await tokens(store).insertMany(
    (['reply', 'unsubscribe'] as const).map((purpose) => ({ _id: hashToken(made[purpose]), purpose, memberId, topicId, createdAt })),
  );
  return made;
}

/** The member and topic a token of this purpose is bound to; null for a malformed or unknown one. */
export async function resolveReplyToken(
  store: DocumentStore,
  purpose: ReplyTokenPurpose,
  token: string,
): Promise<{ memberId: string; topicId: string } | null> {
  if (!REPLY_TOKEN_PATTERN.test(token)) return null;
  const found = await tokens(store).findOne({ _id: hashToken(token) });
  return found && found.purpose === purpose ? { memberId: found.memberId, topicId: found.topicId } : null;
}

/** Forgets every token of an erased member. */
export async function forgetReplyTokens(store: DocumentStore, memberId: string): Promise<number> {
  return tokens(store).deleteMany({ memberId });
}

export async function setupReplyTokens(store: DocumentStore) {
  await tokens(store).createIndex({ memberId: 1 });
}

/** `reply+{token}@{domain}`. */
export const replyAddress = (token: string, domain: string) => `reply+${token}@${domain}`;

/**
 * The token of a reply address at our domain (`reply+{token}@REPLY_DOMAIN`, the domain in any case); null for any
 * other address.
 */
export function replyAddressToken(address: string, domain: string): string | null {
  const at = address.lastIndexOf('@');
  if (at < 0 || address.slice(at + 1).toLowerCase() !== domain.toLowerCase()) return null;
  const local = address.slice(0, at);
  if (!local.toLowerCase().startsWith('reply+')) return null;
  const token = local.slice('reply+'.length);
  return REPLY_TOKEN_PATTERN.test(token) ? token : null;
}
