/**
 * DKIM signing when DKIM_* is configured: a subscription mail arrives signed, the signature covers both
 * List-Unsubscribe headers (RFC 8058), and it verifies against the public key with an independent check of
 * RFC 6376 relaxed/relaxed canonicalisation written here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash, createVerify, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { startTestSite, type TestSite } from '../../support/site';
import { mailOutbox } from '../../../workers/subscriptions/outbox';
import { commands, publishBlogPost, startCountingSmtp, subscribe, type CountingSmtp } from './delivery-fixtures';

let smtp: CountingSmtp;
let site: TestSite;
let publicKey: KeyObject;

beforeAll(async () => {
  const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
  publicKey = pair.publicKey;
  smtp = await startCountingSmtp();
  site = await startTestSite({
    SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
    PUBLIC_URL: 'https://community.example.org',
    DKIM_DOMAIN: 'community.example.org',
    DKIM_SELECTOR: 'mail2026',
    DKIM_PRIVATE_KEY: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  });
});

afterAll(async () => {
  await site?.close();
  await smtp?.close();
});

interface Header {
  name: string;
  /** The whole header as received, folded lines included, without the final CRLF. */
  raw: string;
}

function splitMessage(raw: string): { headers: Header[]; body: string } {
  const end = raw.indexOf('\r\n\r\n');
  const headers: Header[] = [];
  for (const line of raw.slice(0, end).split('\r\n')) {
    if (/^[ \t]/.test(line) && headers.length > 0) headers.at(-1)!.raw += `\r\n${line}`;
    else headers.push({ name: line.slice(0, line.indexOf(':')).trim().toLowerCase(), raw: line });
  }
  return { headers, body: raw.slice(end + 4) };
}

/** RFC 6376 §3.4.2 */
const relaxedHeader = (header: Header) => {
  const colon = header.raw.indexOf(':');
  const value = header.raw
    .slice(colon + 1)
    .replace(/\r\n/g, '')
    .replace(/[ \t]+/g, ' ')
    .trim();
  return `${header.name}:${value}`;
};

/** RFC 6376 §3.4.4 */
function relaxedBody(body: string): string {
  const lines = body.split('\r\n').map((line) => line.replace(/[ \t]+/g, ' ').replace(/ $/, ''));
  while (lines.length > 0 && lines.at(-1) === '') lines.pop();
  return lines.length === 0 ? '' : `${lines.join('\r\n')}\r\n`;
}

function tags(value: string): Map<string, string> {
  return new Map(
    value
      .replace(/\s+/g, '')
      .split(';')
      .filter(Boolean)
      .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
  );
}

function verifyDkim(raw: string, key: KeyObject) {
  const { headers, body } = splitMessage(raw);
  const signature = headers.find((header) => header.name === 'dkim-signature')!;
  const signed = tags(signature.raw.slice(signature.raw.indexOf(':') + 1));
  const bodyHashOk = createHash('sha256').update(relaxedBody(body)).digest('base64') === signed.get('bh');
  // Each listed name takes the next instance from the bottom (§5.4.2); here each header occurs once.
  const names = signed.get('h')!.toLowerCase().split(':');
  const canonical = names
    .map((name) => headers.find((header) => header.name === name))
    .filter((header): header is Header => header !== undefined)
    .map((header) => `${relaxedHeader(header)}\r\n`)
    .join('');
  const unsigned = relaxedHeader({ name: 'dkim-signature', raw: signature.raw.replace(/b=[^;]*$|b=[^;]*(?=;)/, 'b=') });
  const verifier = createVerify('RSA-SHA256');
  verifier.update(canonical + unsigned);
  return { signed, names, bodyHashOk, signatureOk: verifier.verify(key, signed.get('b')!, 'base64') };
}

describe('DKIM', () => {
  it('signs subscription mail, List-Unsubscribe and List-Unsubscribe-Post included', async () => {
    const handle = commands(site.services.eventStore);
    const reader = await subscribe(handle, site.services.config.subscriptionLinkSecret, {
      email: 'signed@example.org',
      type: 'all',
      frequency: 'immediate',
    });
    await publishBlogPost(handle, 'Signed and sealed');
    await expect.poll(() => smtp.to(reader.email).length, { timeout: 15_000 }).toBe(1);
    await expect.poll(() => mailOutbox(site.services.store).countDocuments({ status: 'queued' })).toBe(0);

    const { signed, names, bodyHashOk, signatureOk } = verifyDkim(smtp.to(reader.email)[0]!.raw, publicKey);
    expect(signed.get('d')).toBe('community.example.org');
    expect(signed.get('s')).toBe('mail2026');
    expect(names).toEqual(expect.arrayContaining(['from', 'to', 'subject', 'message-id', 'list-unsubscribe', 'list-unsubscribe-post']));
    expect(bodyHashOk).toBe(true);
    expect(signatureOk).toBe(true);

    // And a tampered header breaks it: the check is not vacuous.
    const tampered = smtp.to(reader.email)[0]!.raw.replace(/^List-Unsubscribe-Post: .*$/m, 'List-Unsubscribe-Post: nothing');
    expect(verifyDkim(tampered, publicKey).signatureOk).toBe(false);
  });
});
