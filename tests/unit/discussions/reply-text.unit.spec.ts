import { describe, expect, it } from 'vitest';
import { htmlReplyToText, replyTextToHtml, stripReplyText } from '../../../shared/discussions/reply-text';

// Samples as the programs write them: the text/plain part of real replies, with names and addresses changed.
const GMAIL = [
  'I remember the night crew well: Hal ran the board until 1962.',
  '',
  'He kept a log of every request.',
  '',
  'On Thu, Nov 26, 2026 at 10:04 AM Broadcast History Community <',
  'reply+Zm9vYmFyYmF6cXV4cXV1eHF1dXhxdXV4cXV1eHF1dXg@community.example> wrote:',
  '',
  '> Who remembers the KRNT night crew?',
  '>',
  '> -- Dorothy',
  '',
].join('\r\n');

const OUTLOOK_DESKTOP = [
  'Yes, the truck was a 1953 RCA remote unit.',
  '',
  'Regards,',
  'Harold',
  '',
  '________________________________',
  'From: Broadcast History Community <community@example.org>',
  'Sent: Thursday, November 26, 2026 10:04 AM',
  'To: Harold Stein <harold@example.net>',
  'Subject: New reply: Identifying this 1950s remote truck',
  '',
  'Dorothy Kane replied:',
  'Does anyone know this truck?',
].join('\r\n');

const OUTLOOK_ORIGINAL_MESSAGE = [
  'It went off the air in 1971.',
  '',
  '-----Original Message-----',
  'From: Broadcast History Community [mailto:community@example.org]',
  'Sent: Thursday, November 26, 2026 10:04 AM',
  'Subject: New reply',
  '',
  'When did WKBH sign off?',
].join('\n');

const OUTLOOK_WEB = [
  'Thanks, that is the one.',
  '',
  'Get Outlook for iOS<https://aka.ms/o0ukef>',
  '________________________________',
  'From: Broadcast History Community <community@example.org>',
  'Sent: Thursday, November 26, 2026 4:04:12 PM',
  'To: margaret@example.com <margaret@example.com>',
  'Subject: New reply',
  '',
  'The old text',
].join('\n');

const APPLE_MAIL = [
  'My father worked there in 1958. I have photos.',
  '',
  'Sent from my iPhone',
  '',
  '> On Nov 26, 2026, at 10:04, Broadcast History Community <reply+abc@community.example> wrote:',
  '> ',
  '> \uFEFFWho remembers the KRNT night crew?',
].join('\n');

const APPLE_MAIL_DESKTOP = [
  'Same here.',
  '',
  '> On 26 Nov 2026, at 10:04, Broadcast History Community <reply+abc@community.example> wrote:',
  '> ',
  '> Who remembers the KRNT night crew?',
  '',
].join('\n');

const SIGNATURE = ['I have the 1961 schedule somewhere.', '', '-- ', 'Harold Stein', 'Retired engineer, KRNT'].join('\n');

describe('stripReplyText', () => {
  it('keeps what the member wrote above a Gmail attribution wrapped over two lines, and drops the quote', () => {
    expect(stripReplyText(GMAIL)).toBe('I remember the night crew well: Hal ran the board until 1962.\n\nHe kept a log of every request.');
  });

  it('cuts at the header block Outlook puts under its line', () => {
    expect(stripReplyText(OUTLOOK_DESKTOP)).toBe('Yes, the truck was a 1953 RCA remote unit.\n\nRegards,\nHarold');
  });

  it('cuts at "-----Original Message-----"', () => {
    expect(stripReplyText(OUTLOOK_ORIGINAL_MESSAGE)).toBe('It went off the air in 1971.');
  });

  it('drops Outlook mobile\'s "Get Outlook for iOS" and the header below', () => {
    expect(stripReplyText(OUTLOOK_WEB)).toBe('Thanks, that is the one.');
  });

  it('drops "Sent from my iPhone" and Apple Mail\'s quoted attribution', () => {
    expect(stripReplyText(APPLE_MAIL)).toBe('My father worked there in 1958. I have photos.');
    expect(stripReplyText(APPLE_MAIL_DESKTOP)).toBe('Same here.');
  });

  it('drops the signature under the "-- " delimiter', () => {
    expect(stripReplyText(SIGNATURE)).toBe('I have the 1961 schedule somewhere.');
  });

  it("keeps the member's words between quoted lines of an interleaved reply", () => {
    const text = ['> Who ran the board?', 'Hal did.', '> And after him?', 'Ted, until 1970.'].join('\n');
    expect(stripReplyText(text)).toBe('Hal did.\nTed, until 1970.');
  });

  it('finds nothing in a mail of quotes and a signature alone', () => {
    expect(stripReplyText(['', 'On Thu, Nov 26, 2026 at 10:04 AM Someone <a@b.c> wrote:', '> text'].join('\n'))).toBe('');
    expect(stripReplyText('> only a quote\n>\n-- \nHarold')).toBe('');
    expect(stripReplyText('   \n\n')).toBe('');
  });

  it('leaves a sentence that merely begins with "On" alone', () => {
    expect(stripReplyText('On the night shift we played jazz.\nHal chose the records.')).toBe(
      'On the night shift we played jazz.\nHal chose the records.',
    );
  });
});

describe('replyTextToHtml', () => {
  it('makes a paragraph per block and a <br> per line, escaping everything', () => {
    expect(replyTextToHtml('First <b>line</b>\nsecond & "third"\n\n\nNext')).toBe(
      '<p>First &lt;b&gt;line&lt;/b&gt;<br>second &amp; &quot;third&quot;</p><p>Next</p>',
    );
  });

  it('gives nothing for nothing', () => {
    expect(replyTextToHtml('')).toBe('');
  });
});

describe('htmlReplyToText', () => {
  it('reads an HTML-only Gmail reply without its quote', () => {
    const html =
      '<div dir="ltr">Hal ran the board.<br>Until 1962.</div><br><div class="gmail_quote"><div class="gmail_attr">On Thu wrote:</div>' +
      '<blockquote class="gmail_quote">Who remembers?</blockquote></div>';
    expect(stripReplyText(htmlReplyToText(html))).toBe('Hal ran the board.\nUntil 1962.');
  });

  it('drops an Outlook reply header and decodes entities', () => {
    const html = '<p>Fish &amp; chips&nbsp;on Friday</p><div id="divRplyFwdMsg"><b>From:</b> Someone</div><p>old</p>';
    expect(stripReplyText(htmlReplyToText(html))).toBe('Fish & chips on Friday');
  });
});
