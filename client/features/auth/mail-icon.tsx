import { Center, ThemeIcon } from '@mantine/core';

/** The envelope shown on the 'Check your email' screens (decorative). */
export function MailIcon() {
  return (
    <Center>
      <ThemeIcon size={64} radius="xl" variant="light" aria-hidden="true">
        <svg
          width="32"
          height="32"
          viewBox="0 0 24 24"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.8"
          strokeLinecap="round"
          strokeLinejoin="round"
        >
          <rect x="3" y="5" width="18" height="14" rx="2" />
          <path d="M3 7l9 6 9-6" />
        </svg>
      </ThemeIcon>
    </Center>
  );
}
