import { Anchor, Group } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { LegalDialog } from './legal-dialog';
import { PRIVACY_SECTIONS, TERMS_SECTIONS } from './legal-texts';

/** Footer links opening the 'Terms & Conditions' and 'Privacy Policy' dialogs. */
export function LegalLinks({ onCookieSettings }: { onCookieSettings?: () => void }) {
  const [termsOpen, terms] = useDisclosure(false);
  const [privacyOpen, privacy] = useDisclosure(false);
  return (
    <>
      <Group gap="lg" wrap="wrap" style={{ rowGap: 0 }}>
        <Anchor component="button" type="button" size="sm" c="dimmed" py={4} onClick={terms.open}>
          Terms &amp; Conditions
        </Anchor>
        <Anchor component="button" type="button" size="sm" c="dimmed" py={4} onClick={privacy.open}>
          Privacy Policy
        </Anchor>
        {onCookieSettings && (
          <Anchor component="button" type="button" size="sm" c="dimmed" py={4} onClick={onCookieSettings}>
            Cookie settings
          </Anchor>
        )}
      </Group>
      <LegalDialog title="Terms & Conditions" sections={TERMS_SECTIONS} opened={termsOpen} onClose={terms.close} />
      <LegalDialog title="Privacy Policy" sections={PRIVACY_SECTIONS} opened={privacyOpen} onClose={privacy.close} />
    </>
  );
}
