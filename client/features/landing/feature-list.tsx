import { List, ThemeIcon } from '@mantine/core';

export const BUSINESS_FEATURES = [
  'Unlimited slots',
  'A dedicated booking page',
  'Email notifications',
  'QR code sharing',
  'One dashboard for slot and booking tracking, separate from your main schedule',
];

export const CUSTOMER_FEATURES = [
  'Find slots from the businesses you follow',
  'Bookmark favourites',
  'Quick booking',
  'Email confirmations',
  'Booking history',
];

/** A ticked list of product features. */
export function FeatureList({ items }: { items: readonly string[] }) {
  return (
    <List
      listStyleType="none"
      spacing={6}
      size="sm"
      mt="xs"
      icon={
        <ThemeIcon size={20} radius="xl" variant="light" aria-hidden="true">
          <svg width="12" height="12" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="3">
            <path d="M5 12l5 5 9-10" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
        </ThemeIcon>
      }
    >
      {items.map((f) => (
        <List.Item key={f}>{f}</List.Item>
      ))}
    </List>
  );
}
