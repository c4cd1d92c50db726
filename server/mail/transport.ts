import nodemailer from 'nodemailer';

/** SMTP_URL when set; otherwise the in-process sink on loopback. */
export function createTransport(smtpUrl: string | undefined, sinkPort: number) {
  return smtpUrl
    ? nodemailer.createTransport(smtpUrl)
    : nodemailer.createTransport({ host: '127.0.0.1', port: sinkPort, secure: false, ignoreTLS: true });
}

export type Transport = ReturnType<typeof createTransport>;
