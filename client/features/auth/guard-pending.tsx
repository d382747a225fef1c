import { useEffect } from 'react';
import { FullPageLoader } from '../layout/full-page-loader';

/** The page reloads if loading a protected page takes more than 3 s. */
const RELOAD_AFTER_MS = 3_000;
/** Not more than one automatic reload per 30 s, so a slow server does not cause a reload loop. */
const RELOAD_GUARD_MS = 30_000;
const LAST_RELOAD_KEY = 'lastslot.guardReloadAt';

function mayReload(): boolean {
  try {
    const last = Number(window.sessionStorage.getItem(LAST_RELOAD_KEY) ?? 0);
    if (Date.now() - last < RELOAD_GUARD_MS) return false;
    window.sessionStorage.setItem(LAST_RELOAD_KEY, String(Date.now()));
    return true;
  } catch {
    return false;
  }
}

/** The spinner shown while a protected route checks the session; reloads the page after 3 s. */
export function GuardPending({ label = 'Loading...' }: { label?: string }) {
  useEffect(() => {
    const timer = setTimeout(() => {
      if (mayReload()) window.location.reload();
    }, RELOAD_AFTER_MS);
    return () => clearTimeout(timer);
  }, []);
  return <FullPageLoader label={label} />;
}
