/**
 * The embed page (client/embed.html, served for every /embed route): one widget,
 * drawn with plain DOM, kept live by socket notices. No React, router or UI
 * library: beyond socket.io-client it loads only small pure helpers, so it
 * stays light for the sites that embed it.
 */
import { readWidgetRequest } from './widgets';
import { NOTICES, loadWidget } from './data';
import { renderFailure, renderUnknown, renderWidget } from './render';
import { coalesce, followNotices, reportHeight } from './live';
import './embed.css';

const root = document.getElementById('widget')!;
const request = readWidgetRequest(window.location.pathname, window.location.search);
if (request?.options.transparent) document.documentElement.classList.add('transparent');
const heightChanged = reportHeight(root);

if (!request) {
  root.replaceChildren(renderUnknown());
  heightChanged();
} else {
  const context = { origin: window.location.origin, timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone };
  let shown = false;
  const refresh = coalesce(async () => {
    try {
      root.replaceChildren(renderWidget(request, await loadWidget(request), context));
      shown = true;
    } catch {
      // What was shown stays up when a later refetch fails; the next notice or reconnection tries again.
      if (!shown) root.replaceChildren(renderFailure(request));
    }
    root.setAttribute('aria-busy', 'false');
    heightChanged();
  });
  refresh();
  followNotices(NOTICES[request.spec.kind], refresh);
}
