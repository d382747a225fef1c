import { Center, ThemeIcon } from '@mantine/core';
import { LineIcon } from '../layout/nav-icons';

/** The envelope shown on the 'Check your email' screens (decorative). */
export function MailIcon() {
  return (
    <Center>
      <ThemeIcon size={64} radius="xl" variant="light" aria-hidden="true">
        <LineIcon size={32}>
          <rect x="3" y="5" width="18" height="14" rx="2" />
          <path d="M3 7l9 6 9-6" />
        </LineIcon>
      </ThemeIcon>
    </Center>
  );
}
