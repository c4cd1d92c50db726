/**
 * The built-in text of each site page, shown until an admin edits it (Settings → Site pages). Markdown, rendered
 * and sanitised like an admin's own text.
 */
import type { SitePageSlug } from './schemas';

export const DEFAULT_SITE_PAGES: Record<SitePageSlug, { title: string; body: string }> = {
  about: {
    title: 'About the community',
    body: `Broadcast History Community is a members-only home for the people who made, watched and listened to broadcasting in our state, and for everyone who keeps its memory.

Members share memories, photographs, recordings and finds in the **newsfeed**, read stories on the **blog**, and meet at reunions, memorials and anniversary broadcasts listed in the **calendar**.

The community is run by volunteers. Staff members moderate posts and events; admins look after the site itself.

- [Community guidelines](/guidelines)
- [Privacy notice](/privacy)
- [Contact us](/contact)`,
  },
  contact: {
    title: 'Contact us',
    body: `The community is run by volunteers who read every message.

- **Questions about your account, your e-mail or your data:** write to the admins through the address in any e-mail we send you, or ask a staff member once you are signed in.
- **A post, comment or event that breaks the guidelines:** use the **Report** button on it; staff review every report.
- **Press, archives and museums:** tell us what you are working on and we will put you in touch with the right members.

Please do not send original recordings or photographs by e-mail: we will arrange a safe way to receive them.`,
  },
  privacy: {
    title: 'Privacy notice',
    body: `This notice explains what Broadcast History Community collects about you, why, how long we keep it and what you can ask of us.

## What we collect

- **Your account:** first and last name, e-mail address, a password (stored only as a salted hash) and, if you add one, a profile picture address.
- **What you publish:** posts, likes, shares, reports and the events you submit, with the time of each.
- **Event replies:** whether you are attending, maybe attending or not attending an event.
- **E-mail subscriptions:** the address, the updates you chose (newsfeed, blog or both), how often, and a consent record: when you subscribed, when you confirmed, and when you left.
- **Technical records:** a session cookie that keeps you signed in, and the server's logs of requests, used only to keep the site working and to protect it from abuse.

We do not use advertising or tracking cookies, and we never sell or rent your information.

## Why we use it

To run the community you joined: show your posts and replies to other members, send the e-mail you asked for, moderate content, and keep the site secure. Our basis is the membership you asked for and, for e-mail updates, your consent.

## How long we keep it

Your account and what you published are kept while you are a member. Subscription consent records are kept with the subscription, so we can show what you agreed to and when. Ask the admins and they erase your account and what it holds.

## E-mail

Every e-mail we send has a one-click **unsubscribe** link, and a guest subscription starts only after you confirm it from the e-mail we send first. You can change or stop your e-mail at any time under **Subscription Settings**.

## Your rights

You may ask for a copy of the information we hold about you, ask us to correct it, or ask us to erase it. Write to the community's admins (see [Contact us](/contact)); we answer within 30 days.

## Who can see what

Members see what other members publish. Staff and admins see the member list with e-mail addresses in order to moderate and to help with accounts. Embedded widgets on other websites show only published public content.`,
  },
  terms: {
    title: 'Terms of use',
    body: `By joining Broadcast History Community you agree to these terms.

1. **Membership.** Membership is free and personal. Keep your password to yourself; you are responsible for what is posted from your account.
2. **Your content.** You keep the rights to what you post. You allow the community to show it to members, in the community's e-mail and in the public widgets where a post is public. Only post material you have the right to share, and credit its source.
3. **Behaviour.** Follow the [community guidelines](/guidelines). Staff may hold, reject or remove content, and admins may suspend accounts that break them.
4. **No guarantees.** The community is run by volunteers. We do our best to keep the site available and your content safe, but we cannot promise it will never be interrupted.
5. **Leaving.** You may leave at any time; see the [privacy notice](/privacy) for what happens to your information.
6. **Changes.** We may update these terms; the page shows when it was last changed.`,
  },
  guidelines: {
    title: 'Community guidelines',
    body: `We are here to remember and to learn. These guidelines keep the community a place people want to come back to.

## Be respectful

Disagree with ideas, not people. No insults, harassment, or discrimination. Remember that many members worked alongside the people they write about.

## Stay on topic

Broadcasting history in our state: stations, programmes, people, equipment, towers, archives and the communities they served. Personal news of former colleagues is welcome.

## Credit and care

Say where a photograph, recording or document comes from. Do not post other people's private contact details. Ask before sharing a photograph of a living person in a private setting.

## Moderation

Posts from members wait for a staff member's approval before everyone sees them. Use **Report** on anything that breaks these guidelines; staff review every report. Staff may reject or remove content, and admins may suspend an account that repeatedly breaks the guidelines.`,
  },
  help: {
    title: 'Help',
    body: `## Getting started

1. **Create an account** with your name, e-mail address and a password of at least 10 characters. You can also sign in with a link sent to your e-mail.
2. **Share a memory** from the newsfeed: write a few lines, add a photograph, video, audio or link, and tag it. Staff approve members' posts before everyone sees them.
3. **Find events** in the calendar: reply attending, maybe or not attending, and add an event to your own calendar.
4. **Get e-mail updates** under **Subscription Settings**: new posts, blog stories or both, at once, daily or weekly. Every e-mail has a one-click unsubscribe link.

## Keyboard

Press **Ctrl + B** (or **⌘ + B**) to show or hide the sidebar. Every control can be reached with **Tab**.

Still stuck? See [Support](/support).`,
  },
  support: {
    title: 'Support',
    body: `## Can't sign in?

Use **E-mail me a sign-in link** on the sign-in page: the link works once and for a short time. If your account was suspended, the sign-in page says so; contact the admins to talk about it.

## Not getting our e-mail?

Check your spam folder and add the sender to your contacts. A guest subscription starts only once you confirm it from the first e-mail. Members can check their choices under **Subscription Settings**.

## Something looks wrong?

Tell a staff member or write to the admins (see [Contact us](/contact)) with what you did, what you expected and what happened, and, if you can, a screenshot.`,
  },
};
