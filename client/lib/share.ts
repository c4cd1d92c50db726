import { SHARE_POPUP } from '../../shared/feed/constants';

/** The three social networks of the spec's share control, with the shared URL and title. */
export function shareNetworks(url: string, title: string) {
  return [
    { name: 'Facebook', href: `https://www.facebook.com/sharer/sharer.php?u=${encodeURIComponent(url)}` },
    { name: 'X', href: `https://twitter.com/intent/tweet?url=${encodeURIComponent(url)}&text=${encodeURIComponent(title)}` },
    { name: 'LinkedIn', href: `https://www.linkedin.com/sharing/share-offsite/?url=${encodeURIComponent(url)}` },
  ];
}

/** Copies text to the clipboard; false when the browser refused. */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // The older fallback, for browsers without the clipboard API or its permission.
    const area = document.createElement('textarea');
    area.value = text;
    document.body.append(area);
    area.select();
    const copied = document.execCommand('copy');
    area.remove();
    return copied;
  }
}

export function openSharePopup(href: string) {
  window.open(href, 'share', `width=${SHARE_POPUP.width},height=${SHARE_POPUP.height}`);
}
