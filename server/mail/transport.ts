import nodemailer from 'nodemailer';

export interface DkimOptions {
  domainName: string;
  keySelector: string;
  privateKey: string;
}

/**
 * Headers a DKIM signature covers. nodemailer's default list has List-Unsubscribe but not List-Unsubscribe-Post,
 * and RFC 8058 asks for both to be signed, so a relay cannot turn a link into a one-click POST.
 */
export const DKIM_SIGNED_HEADERS = ['From', 'To', 'Subject', 'Date', 'Message-ID', 'MIME-Version', 'Content-Type', 'List-Unsubscribe', 'List-Unsubscribe-Post'];

/**
 * Pooled connections (a fan-out reuses them instead of one SMTP handshake per mail) and timeouts well below the
 * outbox claim lease (workers/subscriptions/delivery.ts), so a hung send never outlives its claim.
 */
const CONNECTION = { pool: true, maxConnections: 5, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 } as const;

/** SMTP_URL when set; otherwise the in-process sink on loopback. Signs with DKIM when a key is given. */
export function createTransport(smtpUrl: string | undefined, sinkPort: number, dkim?: DkimOptions) {
  const signing = dkim ? { dkim: { ...dkim, headerFieldNames: DKIM_SIGNED_HEADERS.join(':') } } : {};
  return smtpUrl
    ? nodemailer.createTransport({ url: smtpUrl, ...CONNECTION, ...signing })
    : nodemailer.createTransport({ host: '127.0.0.1', port: sinkPort, secure: false, ignoreTLS: true, ...CONNECTION, ...signing });
}

export type Transport = ReturnType<typeof createTransport>;
