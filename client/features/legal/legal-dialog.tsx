import { Modal, ScrollArea, Stack, Text, Title } from '@mantine/core';
import { LEGAL_UPDATED, type LegalSection } from './legal-texts';

/** A scrollable dialog of legal sections (Terms & Conditions, Privacy Policy). */
export function LegalDialog({
  title,
  sections,
  opened,
  onClose,
}: {
  title: string;
  sections: LegalSection[];
  opened: boolean;
  onClose: () => void;
}) {
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
