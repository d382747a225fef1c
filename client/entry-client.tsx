/**
 * The browser's entry: records what the person typed or chose in the server's page so far (the app
 * sets it again once it runs: client/lib/input-before-start.ts), then hydrates the document the
 * server rendered, with the router's state and query cache the server sent with it; every route's
 * screen marks the document once React has committed it (client/lib/page-hydrated.tsx).
 */
import { RouterClient } from '@tanstack/react-router/ssr/client';
import { hydrateRoot } from 'react-dom/client';
import { recordInputBeforeStart } from './lib/input-before-start';
import { markPageHydration } from './lib/page-hydrated';
import { createAppRouter } from './router';
import { queryClient, trpcClient } from './lib/trpc';

recordInputBeforeStart();
const router = createAppRouter({ queryClient, trpcClient, origin: window.location.origin });
markPageHydration(router);
hydrateRoot(document, <RouterClient router={router} />);
