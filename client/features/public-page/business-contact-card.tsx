import { memo, type ReactNode } from 'react';
import { formatTime, shortAddress } from '../../../shared/format';
import { WEEKDAY_LABEL, WEEKDAYS } from '../../../shared/opening-hours';
import './public-page.css';
import type { PublicData } from './use-business-by-slug';

/** A link of the card: Mantine's Anchor at size sm (focus ring from Mantine's global class). */
const LINK_CLASS = 'pp-link pp-text-sm mantine-focus-auto';

/**
 * The page's side card: address (with a maps link), email, phone and the week's opening hours.
 * Plain elements styled by ./public-page.css (ADR 0115). Memoised like `SlotList`.
 */
export const BusinessContactCard = memo(function BusinessContactCard({
  business,
}: {
  business: PublicData['business'];
}) {
  const hours = business.openingHours ?? {};
  const address = business.address?.trim() ?? '';
  return (
    <div className="pp-card" data-testid="business-info">
      <div className="pp-info">
        {address && (
          <InfoItem label="Address">
            <p className="pp-text-sm pp-wrap" title={address} data-testid="business-address">
              {shortAddress(address)}
            </p>
            <a
              className={LINK_CLASS}
              href={`https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(address)}`}
              target="_blank"
              rel="noopener noreferrer"
            >
              Open in Maps
            </a>
          </InfoItem>
        )}
        {business.emailAddress && (
          <InfoItem label="Email">
            <a className={`${LINK_CLASS} pp-wrap`} href={`mailto:${business.emailAddress}`}>
              {business.emailAddress}
            </a>
          </InfoItem>
        )}
        {business.phoneNumber && (
          <InfoItem label="Phone">
            <a className={LINK_CLASS} href={`tel:${business.phoneNumber.replace(/\s+/g, '')}`}>
              {business.phoneNumber}
            </a>
          </InfoItem>
        )}
        <InfoItem label="Opening hours">
          <div className="pp-hours" data-testid="opening-hours">
            {WEEKDAYS.map((day) => {
              const h = hours[day];
              return (
                <div key={day} className="pp-hours-day" data-testid="opening-hours-day">
                  <p className="pp-text-sm">{WEEKDAY_LABEL[day]}</p>
                  <p className={h ? 'pp-text-sm' : 'pp-text-sm pp-dimmed'}>
                    {h ? `${formatTime(h.open)} - ${formatTime(h.close)}` : 'Closed'}
                  </p>
                </div>
              );
            })}
          </div>
        </InfoItem>
      </div>
    </div>
  );
});

function InfoItem({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <p className="pp-label">{label}</p>
      {children}
    </div>
  );
}
