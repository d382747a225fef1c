import { Anchor, Card, Group, Stack, Text } from '@mantine/core';
import { memo, type ReactNode } from 'react';
import { formatTime, shortAddress } from '../../../shared/format';
import { WEEKDAY_LABEL, WEEKDAYS } from '../../../shared/opening-hours';
import type { PublicData } from './use-business-by-slug';

/**
 * The page's side card: address (with a maps link), email, phone and the week's opening hours.
 * Memoised like `SlotList`.
 */
export const BusinessContactCard = memo(function BusinessContactCard({
  business,
}: {
  business: PublicData['business'];
}) {
  const hours = business.openingHours ?? {};
  const address = business.address?.trim() ?? '';
  return (
    <Card data-testid="business-info">
      <Stack gap="md">
        {address && (
          <InfoItem label="Address">
            <Text size="sm" style={{ overflowWrap: 'anywhere' }} title={address} data-testid="business-address">
              {shortAddress(address)}
            </Text>
            <Anchor
              href={`https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(address)}`}
              target="_blank"
              rel="noopener noreferrer"
              size="sm"
            >
              Open in Maps
            </Anchor>
          </InfoItem>
        )}
        {business.emailAddress && (
          <InfoItem label="Email">
            <Anchor href={`mailto:${business.emailAddress}`} size="sm" style={{ overflowWrap: 'anywhere' }}>
              {business.emailAddress}
            </Anchor>
          </InfoItem>
        )}
        {business.phoneNumber && (
          <InfoItem label="Phone">
            <Anchor href={`tel:${business.phoneNumber.replace(/\s+/g, '')}`} size="sm">
              {business.phoneNumber}
            </Anchor>
          </InfoItem>
        )}
        <InfoItem label="Opening hours">
          <Stack gap={2} data-testid="opening-hours">
            {WEEKDAYS.map((day) => {
              const h = hours[day];
              return (
                <Group key={day} justify="space-between" gap="xs" wrap="nowrap" data-testid="opening-hours-day">
                  <Text size="sm">{WEEKDAY_LABEL[day]}</Text>
                  <Text size="sm" c={h ? undefined : 'dimmed'}>
                    {h ? `${formatTime(h.open)} - ${formatTime(h.close)}` : 'Closed'}
                  </Text>
                </Group>
              );
            })}
          </Stack>
        </InfoItem>
      </Stack>
    </Card>
  );
});

function InfoItem({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" tt="uppercase" fw={700} c="dimmed" mb={4} style={{ letterSpacing: '0.04em' }}>
        {label}
      </Text>
      {children}
    </div>
  );
}
