/**
 * The landing page's words, in one place: the app's landing page and the server's HTML of it (what a crawler,
 * a link preview and a visitor without JavaScript read) both print them.
 */
export const SITE_NAME = 'Broadcast History Community';
export const SITE_DESCRIPTION = 'Broadcast History Community: a members-only community about the history of broadcasting in our state.';

export const LANDING = {
  eyebrow: 'Premium Community',
  headline: 'The history of broadcasting in our state, kept by the people who lived it.',
  lead: 'Share memories of stations and shows, read the stories behind them, and meet at reunions, memorials and broadcast anniversaries.',
  features: [
    {
      icon: 'newspaper',
      title: 'Rich media posts',
      text: 'Share photos, airchecks, video and links from the golden age of radio and television.',
    },
    { icon: 'users', title: 'Role-based community', text: 'Members, staff and administrators, each with the tools their part needs.' },
    { icon: 'shield', title: 'Content moderation', text: 'Every member post is reviewed, so the feed stays accurate and kind.' },
    { icon: 'trending', title: 'Engagement tracking', text: 'Likes, shares and RSVPs show what the community cares about.' },
  ],
} as const;
