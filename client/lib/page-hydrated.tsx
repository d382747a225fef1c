/**
 * When the app has taken over the page's own content, told through public APIs only. React
 * hydrates the root first and each Suspense boundary after, at a lower priority (every route's
 * match has one, and a route's screen comes in its own chunk): an event sent to a field before its
 * boundary is committed reaches no handler, and a value set then is taken as the field's starting
 * state. So every route's component is wrapped in one whose effect (run when its boundary commits)
 * marks `<html>` with PAGE_HYDRATED_ATTRIBUTE once the page's deepest route is committed; what
 * replays a person's input before the app ran waits for it (client/lib/input-before-start.ts).
 */
import { useChildMatches, type AnyRouter } from '@tanstack/react-router';
import { useEffect, type ComponentType } from 'react';

/** Set on `<html>` once React has committed the first page's deepest route (its screen). */
export const PAGE_HYDRATED_ATTRIBUTE = 'data-page-hydrated';

/** Whether the first page's own content is in React's hands (see PAGE_HYDRATED_ATTRIBUTE). */
export function pageHydrated(): boolean {
  return document.documentElement.hasAttribute(PAGE_HYDRATED_ATTRIBUTE);
}

/** A route's component; a lazily loaded one carries `preload`, which the router calls. */
type RouteComponent = ComponentType & { preload?: () => Promise<void> };

/** `Screen`, with the mark set once it is committed as the deepest route on the page. */
function marked(Screen: RouteComponent): RouteComponent {
  function MarkedScreen() {
    const deepest = useChildMatches({ select: (matches) => matches.length === 0 });
    useEffect(() => {
      if (deepest) document.documentElement.setAttribute(PAGE_HYDRATED_ATTRIBUTE, '');
    }, [deepest]);
    return <Screen />;
  }
  return Object.assign(MarkedScreen, { preload: Screen.preload });
}

/**
 * Wraps every route's component of `router` so the page's deepest one marks the document once
 * committed. Browser only, once, before the app hydrates: the wrapper renders no element of its
 * own, so the server's markup is unchanged.
 */
export function markPageHydration(router: AnyRouter): void {
  for (const route of Object.values(router.routesById) as AnyRouter['routesById'][string][]) {
    const Screen = route.options.component as RouteComponent | undefined;
    if (route.isRoot || !Screen) continue;
    route.update({ component: marked(Screen) });
  }
}
