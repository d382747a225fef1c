import '@mantine/core/styles/Overlay.css';
import '@mantine/core/styles/ModalBase.css';
import '@mantine/core/styles/ScrollArea.css';
import '@mantine/core/styles/Modal.css';
import { Modal, ScrollArea, Stack, Text, Title } from '@mantine/core';
import { LEGAL_UPDATED, PRIVACY_SECTIONS, TERMS_SECTIONS } from './legal-texts';

/** The footer's legal documents. */
export type LegalDocument = 'terms' | 'privacy';

const DOCUMENTS = {
  terms: { title: 'Terms & Conditions', sections: TERMS_SECTIONS },
  privacy: { title: 'Privacy Policy', sections: PRIVACY_SECTIONS },
} as const;

/**
 * A scrollable dialog of one legal document, Terms & Conditions or Privacy Policy. Loaded apart
 * from the first-load bundle with its texts (ADR 0055): see ./legal-links.tsx.
 */
export function LegalDialog({
  document,
  opened,
  onClose,
}: {
  document: LegalDocument;
  opened: boolean;
  onClose: () => void;
}) {
  const { title, sections } = DOCUMENTS[document];
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={title}
      size="lg"
      scrollAreaComponent={ScrollArea.Autosize}
      styles={{ title: { fontWeight: 700, fontSize: 'var(--mantine-font-size-lg)' } }}
    >
      <Stack gap="md">
        <Text size="xs" c="dimmed">
          Last updated {LEGAL_UPDATED}
        </Text>
        {sections.map((s) => (
          <section key={s.title}>
            <Title order={3} fz="md" mb={4}>
              {s.title}
            </Title>
            {s.paragraphs.map((p) => (
              <Text key={p} size="sm" mb={6}>
                {p}
              </Text>
            ))}
          </section>
        ))}
      </Stack>
    </Modal>
  );
}
