// Applies the saved theme before the first paint, so the page never flashes the wrong one. A file of its own,
// not an inline script: the Content-Security-Policy runs only the site's own script files.
try {
  if (localStorage.getItem('theme') === 'dark') document.documentElement.classList.add('dark');
} catch {}
