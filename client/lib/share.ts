import { SHARE_POPUP } from '../../shared/feed/constants';

/** The three social networks of the spec's share control, with the shared URL and title. */
export function shareNetworks(url: string, title: string) {
  return [
    { name: 'Facebook', href: `https://www.facebook.com/sharer/sharer.php?u=${encodeURIComponent(url)}` },
    { name: 'X', href: `https://twitter.com/intent/tweet?url=${encodeURIComponent(url)}&text=${encodeURIComponent(title)}` },
    { name: 'LinkedIn', href: `https://www.linkedin.com/sharing/share-offsite/?url=${encodeURIComponent(url)}` },
  ];
}

export function openSharePopup(href: string) {
  window.open(href, 'share', `width=${SHARE_POPUP.width},height=${SHARE_POPUP.height}`);
}
