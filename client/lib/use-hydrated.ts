import { useSyncExternalStore } from 'react';

const noSubscription = () => () => {};

/**
 * False during the server render and the browser's hydrating render, true from the render after
 * (and at once in a component first mounted later): what reads the device (storage, time zone,
 * clock) waits for it, so the first render in the browser matches the server's markup.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}
