import { useDisclosure } from '@mantine/hooks';
import type { ReactNode } from 'react';
import { lazyDialog } from '../../lib/lazy-dialog';
import '../layout/layout.css';

// The dialog and the texts load when a link is pointed at, focused or clicked (ADR 0055).
const LegalDialog = lazyDialog(
  () => import('./legal-dialog').then((m) => m.LegalDialog),
  (p) => p.opened,
);

/** Footer links opening the 'Terms & Conditions' and 'Privacy Policy' dialogs. */
export function LegalLinks({ onCookieSettings }: { onCookieSettings?: () => void }) {
  const [termsOpen, terms] = useDisclosure(false);
  const [privacyOpen, privacy] = useDisclosure(false);
  return (
    <>
      <div className="footer-dialog-links">
        <FooterLink onClick={terms.open} onIntent={LegalDialog.preload}>
          Terms &amp; Conditions
        </FooterLink>
        <FooterLink onClick={privacy.open} onIntent={LegalDialog.preload}>
          Privacy Policy
        </FooterLink>
        {onCookieSettings && <FooterLink onClick={onCookieSettings}>Cookie settings</FooterLink>}
      </div>
      <LegalDialog document="terms" opened={termsOpen} onClose={terms.close} />
      <LegalDialog document="privacy" opened={privacyOpen} onClose={privacy.close} />
    </>
  );
}

/** A footer link that opens a dialog; `onIntent` runs when it is pointed at or focused. */
function FooterLink({
  children,
  onClick,
  onIntent,
}: {
  children: ReactNode;
  onClick: () => void;
  onIntent?: () => void;
}) {
  return (
    <button
      type="button"
      className="footer-dialog-link mantine-focus-auto"
      onClick={onClick}
      onPointerEnter={onIntent}
      onFocus={onIntent}
    >
      {children}
    </button>
  );
}
