import { Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** A settings card's title (a level-2 heading, `id` for aria-labelledby) and its short explanation. */
export function CardHeading({ id, title, children }: { id?: string; title: string; children?: ReactNode }) {
  return (
    <div>
      <Title order={2} fz="lg" id={id}>
        {title}
      </Title>
      {children && (
        <Text size="sm" c="dimmed">
          {children}
        </Text>
      )}
    </div>
  );
}
