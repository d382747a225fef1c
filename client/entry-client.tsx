/**
 * The browser's entry: hydrates the document the server rendered, with the router's state and
 * query cache the server sent with it.
 */
import { RouterClient } from '@tanstack/react-router/ssr/client';
import { hydrateRoot } from 'react-dom/client';
import { createAppRouter } from './router';
import { queryClient, trpcClient } from './lib/trpc';

const router = createAppRouter({ queryClient, trpcClient, origin: window.location.origin });
hydrateRoot(document, <RouterClient router={router} />);
