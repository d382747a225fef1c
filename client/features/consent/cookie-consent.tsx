import { lazyDialog } from '../../lib/lazy-dialog';
import { PLAIN_BUTTON } from '../layout/plain-controls';
import { openCookieSettings, savePreferences, useConsent } from './consent-store';
import './cookie-consent.css';

// The preferences dialog loads when it opens or 'Customize' is pointed at (ADR 0055).
const CookieSettingsDialog = lazyDialog(
  () => import('./cookie-settings-dialog').then((m) => m.CookieSettingsDialog),
  (p) => p.opened,
);

/**
 * The cookie banner and its preferences dialog: 'We use cookies' with 'Customize' and 'Accept All'
 * until a choice is saved; the dialog has Necessary (always on), Analytics and Marketing, with
 * Cancel and 'Save Preferences'. The banner is plain elements (./cookie-consent.css; ADR 0115).
 */
export function CookieConsent() {
  const { preferences, dialogOpen } = useConsent();

  return (
    <>
      {!preferences && !dialogOpen && (
        <div role="region" aria-label="Cookie consent" className="cookie-banner">
          <div>
            <p className="cookie-banner-title">We use cookies</p>
            <p className="cookie-banner-text">
              Necessary cookies keep you signed in. With your permission we would also use analytics and marketing
              cookies; none are set until you choose.
            </p>
          </div>
          <div className="cookie-banner-actions">
            <button
              type="button"
              className={PLAIN_BUTTON}
              data-variant="default"
              onClick={openCookieSettings}
              onPointerEnter={CookieSettingsDialog.preload}
              onFocus={CookieSettingsDialog.preload}
            >
              <span>Customize</span>
            </button>
            <button
              type="button"
              className={PLAIN_BUTTON}
              onClick={() => savePreferences({ analytics: true, marketing: true })}
            >
              <span>Accept All</span>
            </button>
          </div>
        </div>
      )}
      <CookieSettingsDialog opened={dialogOpen} />
    </>
  );
}
