// Applies the saved theme before the first paint, so the page never flashes the wrong one. A file of its own;
// a visitor's first page carries it inline, allowed by the Content-Security-Policy by its hash alone.
try {
  if (localStorage.getItem('theme') === 'dark') document.documentElement.classList.add('dark');
} catch {}
