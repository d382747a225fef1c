/**
 * The browser's entry: records what the person typed or chose in the server's page so far (the app
 * sets it again once it runs: client/lib/input-before-start.ts), then hydrates the document the
 * server rendered, with the router's state and query cache the server sent with it.
 */
import { RouterClient } from '@tanstack/react-router/ssr/client';
import { hydrateRoot } from 'react-dom/client';
import { recordInputBeforeStart } from './lib/input-before-start';
import { createAppRouter } from './router';
import { queryClient, trpcClient } from './lib/trpc';

recordInputBeforeStart();
const router = createAppRouter({ queryClient, trpcClient, origin: window.location.origin });
hydrateRoot(document, <RouterClient router={router} />);
