/*
 * Broadcast History Community widgets. On any page:
 *   <script src="https://COMMUNITY/embed.js" async></script>
 *   <div data-bhc-widget="calendar" data-limit="5"></div>
 * Each such div becomes a frame showing the widget, sized to its content. Widgets:
 * feed, simple, ultra, compact, minimal, calendar, blog, blog-post (with data-id);
 * other data-* attributes (limit, featured, pinned, compact, transparent, bg) become
 * the widget's options.
 */
(function () {
  // currentScript is null when a tag manager runs this code itself: then the first tag loading the loader tells where from.
  var script = document.currentScript || document.querySelector('script[src$="/embed.js"]');
  if (!script || !script.src) return;
  var origin = new URL(script.src).origin;
  var PATHS = {
    feed: '',
    simple: '/simple',
    ultra: '/ultra',
    compact: '/compact',
    minimal: '/minimal',
    calendar: '/calendar',
    blog: '/blog',
    'blog-post': '/blog/',
  };
  var frames = [];

  function address(element) {
    var name = element.getAttribute('data-bhc-widget');
    if (!Object.prototype.hasOwnProperty.call(PATHS, name)) return null;
    var path = '/embed' + PATHS[name];
    if (name === 'blog-post') {
      if (!element.dataset.id) return null;
      path += encodeURIComponent(element.dataset.id);
    }
    var query = new URLSearchParams();
    Object.keys(element.dataset).forEach(function (key) {
      if (key === 'bhcWidget' || key === 'id') return;
      query.set(
        key.replace(/[A-Z]/g, function (c) {
          return '-' + c.toLowerCase();
        }),
        element.dataset[key],
      );
    });
    var search = query.toString();
    return origin + path + (search ? '?' + search : '');
  }

  function mount(element) {
    var src = address(element);
    if (!src) return;
    var frame = document.createElement('iframe');
    frame.src = src;
    frame.title = element.getAttribute('title') || 'Broadcast History Community ' + element.getAttribute('data-bhc-widget');
    frame.loading = 'lazy';
    frame.setAttribute('scrolling', 'no');
    frame.style.cssText = 'display:block;width:100%;height:160px;border:0;overflow:hidden';
    if (element.id) frame.id = element.id;
    if (element.className) frame.className = element.className;
    frames.push(frame);
    element.replaceWith(frame);
  }

  function mountAll() {
    Array.prototype.forEach.call(document.querySelectorAll('div[data-bhc-widget]'), mount);
  }

  // Only our own widgets may size their frames: the message must come from the community's origin
  // and from one of the frames this script made.
  window.addEventListener('message', function (event) {
    var data = event.data;
    if (event.origin !== origin || !data || data.type !== 'bhc:resize' || typeof data.height !== 'number' || !isFinite(data.height)) return;
    for (var i = 0; i < frames.length; i++) {
      if (frames[i].contentWindow === event.source) frames[i].style.height = Math.min(Math.max(Math.ceil(data.height), 0), 20000) + 'px';
    }
  });

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', mountAll);
  else mountAll();
})();
