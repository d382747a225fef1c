import { useEffect, useId } from 'react';
import { pageTitle } from '../../shared/format';

/**
 * document.title as '{title} | LastSlot' ('LastSlot' alone when nothing on screen names the page).
 * Every mounted screen registers its title; the most recently mounted page title wins, and a
 * loading title (`fallback`) only shows while no page title is registered. So a spinner inside a
 * page ('Settings') never replaces the page's title, a gate or loading screen shown on its own
 * names the page, and when a screen goes away the title of what remains comes back.
 */
interface Entry {
  title: string;
  fallback: boolean;
  order: number;
}

const entries = new Map<string, Entry>();
let counter = 0;

/** The title for `entries` (exported for tests). */
export function composeTitle(list: Iterable<Entry>): string {
  let best: Entry | undefined;
  for (const e of list) {
    if (!best || (best.fallback && !e.fallback) || (best.fallback === e.fallback && e.order > best.order)) best = e;
  }
  return pageTitle(best ? best.title : null);
}

function apply() {
  document.title = composeTitle(entries.values());
}

/**
 * Names the current page `title` (null or undefined: this screen has no title of its own yet).
 * `options.fallback`: a loading or transitional title, used only when no page title is shown.
 */
export function usePageTitle(title: string | null | undefined, options: { fallback?: boolean } = {}): void {
  const id = useId();
  const fallback = options.fallback ?? false;
  useEffect(() => {
    if (!title) {
      apply();
      return;
    }
    entries.set(id, { title, fallback, order: ++counter });
    apply();
    return () => {
      entries.delete(id);
      apply();
    };
  }, [id, title, fallback]);
}
