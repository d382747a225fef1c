import { Card, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * A settings card's title (a heading of level `order`, 2 unless the card sits in a section; `id`
 * for aria-labelledby) and its short explanation.
 */
export function CardHeading({
  id,
  title,
  order = 2,
  children,
}: {
  id?: string;
  title: string;
  order?: 2 | 3;
  children?: ReactNode;
}) {
  return (
    <div>
      <Title order={order} fz="lg" id={id}>
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

/**
 * A settings card that a link can open at (`/settings#{id}`): a bordered section labelled by its
 * heading (`headingId`), scrolled to clear of the page's header.
 */
export function AnchoredCard({ id, headingId, children }: { id: string; headingId: string; children: ReactNode }) {
  return (
    <Card
      withBorder
      padding="lg"
      component="section"
      id={id}
      aria-labelledby={headingId}
      style={{ scrollMarginTop: 80 }}
    >
      {children}
    </Card>
  );
}
