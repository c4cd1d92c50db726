/** The embed routes of spec 2's route table: the only pages other sites may frame. */

const EMBED_PATH = /^\/embed(?:\/(?:simple|ultra|compact|minimal|calendar|blog|blog\/[^/]+))?$/u;

/** Whether a request URL (path and query) is an embed page. */
export function isEmbedPath(url: string): boolean {
  return EMBED_PATH.test(url.split('?')[0]!);
}
