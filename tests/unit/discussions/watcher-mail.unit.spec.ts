/** Who a reply is mailed to, and which addresses the inbound role takes a reply at. */
import { describe, expect, it } from 'vitest';
import { watchersToMail } from '../../../workers/discussions/watcher-mail';
import { replyAddress, replyAddressToken } from '../../../platform/mail/reply-tokens';

describe('watchersToMail', () => {
  const levels = { author: 'watching', watcher: 'watching', reader: 'normal', quiet: 'muted' } as const;

  it('mails every member watching but the reply’s author; normal and muted get nothing', () => {
    expect(watchersToMail({ levels, removed: false }, 'author')).toEqual(['watcher']);
    expect(watchersToMail({ levels, removed: false }, 'reader')).toEqual(['author', 'watcher']);
  });

  it('mails nobody about a removed topic', () => {
    expect(watchersToMail({ levels, removed: true }, 'reader')).toEqual([]);
  });
});

describe('replyAddressToken', () => {
  const token = 'Zm9vYmFyYmF6cXV4cXV1eHF1dXhxdXV4cXV1eHF1dXg';

  it('reads the token of reply+{token}@REPLY_DOMAIN, the domain and prefix in any case', () => {
    expect(replyAddressToken(replyAddress(token, 'reply.example.org'), 'reply.example.org')).toBe(token);
    expect(replyAddressToken(`REPLY+${token}@Reply.Example.org`, 'reply.example.org')).toBe(token);
  });

  it('takes no other address', () => {
    expect(replyAddressToken(`reply+${token}@elsewhere.example`, 'reply.example.org')).toBeNull();
    expect(replyAddressToken(`community@reply.example.org`, 'reply.example.org')).toBeNull();
    expect(replyAddressToken(`reply+short@reply.example.org`, 'reply.example.org')).toBeNull();
    expect(replyAddressToken(`reply+${token}x@reply.example.org`, 'reply.example.org')).toBeNull();
    expect(replyAddressToken(`reply+${token}`, 'reply.example.org')).toBeNull();
  });
});
