import { useRouteContext } from '@tanstack/react-router';

/**
 * The app's own origin (e.g. 'https://lastslot.example'), the same on the server and in the
 * browser, so links a screen shows render identically on both sides.
 */
export function useAppOrigin(): string {
  return useRouteContext({ from: '__root__', select: (context) => context.origin });
}
