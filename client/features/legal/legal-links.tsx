import { Anchor, Group } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { ReactNode } from 'react';
import { lazyDialog } from '../../lib/lazy-dialog';

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
      <Group gap="lg" wrap="wrap" style={{ rowGap: 0 }}>
        <FooterLink onClick={terms.open} onIntent={LegalDialog.preload}>
          Terms &amp; Conditions
        </FooterLink>
        <FooterLink onClick={privacy.open} onIntent={LegalDialog.preload}>
          Privacy Policy
        </FooterLink>
        {onCookieSettings && <FooterLink onClick={onCookieSettings}>Cookie settings</FooterLink>}
      </Group>
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
    <Anchor
      component="button"
      type="button"
      size="sm"
      c="dimmed"
      py={4}
      onClick={onClick}
      onPointerEnter={onIntent}
      onFocus={onIntent}
    >
      {children}
    </Anchor>
  );
}
