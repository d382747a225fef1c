import './mantine-styles';
import './styles.css';

import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App, createAppRouter, PENDING_MS } from './app';
import { renderAfterFirstLoad } from './lib/first-render';
import { seedPageData, takePagePreload } from './lib/page-preload';
import { queryClient, trpcUtils } from './lib/trpc';

const root = document.getElementById('root');
if (!root) throw new Error('Missing #root element');

// A page the server rendered (the public page for a visitor without a session, ADR 0075) is
// hydrated: the browser's first render must be the one the HTML holds, from the same data.
const serverRendered = root.firstElementChild !== null;
try {
  seedPageData(queryClient, takePagePreload(), serverRendered);
} catch (err) {
  // Unreadable preloaded data: the page asks the server instead.
  console.warn('Could not read the page data sent with the HTML', err);
}

const router = createAppRouter({ queryClient, trpcUtils }, undefined, { hydrating: serverRendered });
const app = <App router={router} queryClient={queryClient} />;

if (serverRendered) {
  // The router's hydration mode, as its own SSR client sets it: the root match renders without the
  // Suspense boundary a browser-only router wraps it in, which the server's render does not have.
  router.ssr = { manifest: undefined };
  // The location's first load needs no server call here (its data is in the cache), and must be
  // done before hydrating, so the router renders the matches the server rendered.
  const hydrate = () => startTransition(() => void hydrateRoot(root, app));
  router.load().then(hydrate, hydrate);
} else {
  // The router loads the location first and the page then renders as one transition, which React
  // splits into short tasks (docs/decisions/0062-first-render-after-first-load.md). Mounted after a
  // finished load, the router's Transitioner does not load it again.
  const reactRoot = createRoot(root);
  renderAfterFirstLoad(router.load(), PENDING_MS, () => startTransition(() => reactRoot.render(app)));
}
