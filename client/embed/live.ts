/**
 * Keeps a widget current by push, never by polling: an anonymous socket.io
 * connection (the public room) whose change notices trigger a refetch, and a
 * refetch on every (re)connection, since notices sent while disconnected are
 * lost. Also tells the page holding the frame how tall the widget is.
 */
import { io } from 'socket.io-client';

/**
 * Runs `load` now and again whenever `request()` is called, never two at a time:
 * requests that arrive while a load runs collapse into one more load after it,
 * so a burst of notices costs at most two fetches and the last one sees them all.
 */
export function coalesce(load: () => Promise<void>): () => void {
  let running = false;
  let again = false;
  const run = async () => {
    running = true;
    do {
      again = false;
      await load().catch(() => undefined);
    } while (again);
    running = false;
  };
  return () => {
    if (running) again = true;
    else void run();
  };
}

export function followNotices(messages: readonly string[], refresh: () => void) {
  // WebSocket first (one connection, no long-polling requests on the holding page), long-polling if it fails.
  const socket = io({ path: '/socket.io', withCredentials: false, transports: ['websocket', 'polling'], tryAllTransports: true });
  for (const message of messages) socket.on(message, refresh);
  socket.on('connect', refresh);
  return () => socket.disconnect();
}

export const RESIZE_MESSAGE = 'bhc:resize';

/**
 * Posts the widget's height to the holding page whenever it changes (the loader resizes the frame to it).
 * Returns a function to call after each render: Chrome pauses rendering, and with it ResizeObserver,
 * in cross-origin frames that are off screen, so a widget below the fold reports its height itself.
 */
export function reportHeight(target: HTMLElement): () => void {
  if (window.parent === window) return () => undefined;
  let last = -1;
  const post = () => {
    const height = Math.ceil(target.getBoundingClientRect().height);
    if (height === last) return;
    last = height;
    // The height is no secret, and the holding page's origin is not known here: any page may frame a widget.
    window.parent.postMessage({ type: RESIZE_MESSAGE, height }, '*');
  };
  new ResizeObserver(post).observe(target);
  post();
  return post;
}
