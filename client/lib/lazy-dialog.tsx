/**
 * Dialogs that stay out of the first-load bundle (ADR 0055): the dialog's module, with Mantine's
 * Modal machinery (portal, focus trap, scroll lock, transitions), is fetched the first time the
 * dialog opens, or earlier through `preload` (on intent, or when the browser is idle). Once
 * loaded the dialog stays mounted like any other, so later openings animate as before. Other
 * parts that load when shown (the maps, client/features/map) use the same loader with a
 * placeholder.
 */
import { useEffect, useSyncExternalStore, type ComponentType, type ReactNode } from 'react';
import { startedByInteraction } from './tap-before-start';

/** A dialog component whose code loads on first open; `preload()` fetches it ahead of time. */
export type LazyDialog<P extends object> = ComponentType<P> & {
  /** Starts loading the dialog's code, once; after a failed load (logged) the next call tries again. */
  preload: () => void;
};

/**
 * Wraps the dialog that `load` resolves to. `isOpen(props)` says whether the props ask for the
 * dialog to show: until then (and until a `preload`), nothing is fetched and nothing is rendered.
 * While the code is on its way the dialog shows nothing, or `placeholder(props, failed)` while it
 * is open (`failed`: the last load failed; showing it again tries again); it opens when the code
 * arrives. The server's render never loads the code: it renders the placeholder.
 */
export function lazyDialog<P extends object>(
  load: () => Promise<ComponentType<P>>,
  isOpen: (props: P) => boolean,
  placeholder?: (props: P, failed: boolean) => ReactNode,
): LazyDialog<P> {
  let state: { loaded: ComponentType<P> | null; failed: boolean } = { loaded: null, failed: false };
  let loading = false;
  const listeners = new Set<() => void>();
  const subscribe = (listener: () => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  };
  const getState = () => state;
  const setState = (next: typeof state) => {
    state = next;
    listeners.forEach((l) => l());
  };

  function preload(): void {
    if (state.loaded || loading) return;
    loading = true;
    load().then(
      (component) => setState({ loaded: component, failed: false }),
      (err: unknown) => {
        loading = false;
        console.error('Could not load a part of the page (a dialog or a map)', err);
        setState({ loaded: null, failed: true });
      },
    );
  }

  function Dialog(props: P) {
    const { loaded: Loaded, failed } = useSyncExternalStore(subscribe, getState, getState);
    const open = isOpen(props);
    useEffect(() => {
      if (open) preload();
    }, [open]);
    if (Loaded) return <Loaded {...props} />;
    return open && placeholder ? placeholder(props, failed) : null;
  }
  return Object.assign(Dialog, { preload });
}

/**
 * What counts as the visitor's first interaction with a page (listened to on window, capturing).
 * client/boot.ts lists the same events (and the mouse moving, a change, a send) itself: a module
 * it shared with the app would go into the app's chunk, which the boot script would then load at
 * once.
 */
const FIRST_INTERACTION_EVENTS = ['pointerdown', 'touchstart', 'keydown', 'wheel', 'scroll'] as const;

/**
 * Preloads `dialogs` at the visitor's first interaction with the page after the component mounts
 * (a tap, a key, a scroll), or at once when such an interaction started the app (a server-rendered
 * page's boot script), e.g. the public page's request dialog: usually well before the tap that
 * opens it, so the first opening animates like the others; a tap on the button itself starts the
 * load as it opens. Not at start-up: loading and mounting the dialogs took about a sixth of
 * the first load's main-thread time (ADR 0055).
 */
export function usePreloadOnFirstInteraction(...dialogs: { preload: () => void }[]): void {
  useEffect(() => {
    // On a server-rendered page the visitor's first interaction is what started the app (ADR 0080).
    if (startedByInteraction()) {
      dialogs.forEach((d) => d.preload());
      return;
    }
    const stop = () => {
      for (const type of FIRST_INTERACTION_EVENTS) window.removeEventListener(type, run, true);
    };
    const run = () => {
      stop();
      dialogs.forEach((d) => d.preload());
    };
    for (const type of FIRST_INTERACTION_EVENTS) window.addEventListener(type, run, { capture: true, passive: true });
    return stop;
    // The dialogs are module-level constants.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
}
