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
export const DKIM_SIGNED_HEADERS = [
  'From',
  'To',
  'Subject',
  'Date',
  'Message-ID',
  'MIME-Version',
  'Content-Type',
  'List-Unsubscribe',
  'List-Unsubscribe-Post',
];

/** A relay that stops answering fails the send within seconds, and its outbox entry goes back to the queue for a retry. */
const TIMEOUTS = { connectionTimeout: 5_000, greetingTimeout: 5_000, socketTimeout: 10_000 } as const;
/** A fan-out reuses pooled connections instead of one SMTP handshake per mail; idle ones close after socketTimeout. */
const POOL = { pool: true, maxConnections: 5 } as const;

export interface TransportOptions {
  dkim?: DkimOptions | null;
  /** Keep a pool of SMTP connections (the workers role); close() ends them. */
  pooled?: boolean;
}

/** SMTP_URL when set; otherwise the in-process sink on loopback. Signs with DKIM when a key is given. */
export function createTransport(smtpUrl: string | undefined, sinkPort: number, { dkim, pooled = false }: TransportOptions = {}) {
  const options = {
    ...TIMEOUTS,
    ...(pooled ? POOL : {}),
    ...(dkim ? { dkim: { ...dkim, headerFieldNames: DKIM_SIGNED_HEADERS.join(':') } } : {}),
  };
  return smtpUrl
    ? nodemailer.createTransport({ url: smtpUrl, ...options })
    : nodemailer.createTransport({ host: '127.0.0.1', port: sinkPort, secure: false, ignoreTLS: true, ...options });
}

export type Transport = ReturnType<typeof createTransport>;
