import { memo } from 'react';
import { businessTypeLabel } from '../../../shared/categories';
import { FavouriteButton } from '../favourites/favourite-button';
import './public-page.css';
import type { PublicData } from './use-business-by-slug';

/**
 * The page's heading: business name, type badge, the favourite button when `showFavourite`, and the
 * description. `onFavouriteSignIn` is called when a viewer who is not a customer presses the
 * favourite button; undefined for a customer, who saves the favourite. Memoised like `SlotList`.
 */
export const BusinessHeader = memo(function BusinessHeader({
  business,
  showFavourite,
  onFavouriteSignIn,
}: {
  business: PublicData['business'];
  showFavourite: boolean;
  onFavouriteSignIn: (() => void) | undefined;
}) {
  const typeLabel = businessTypeLabel(business.businessType);
  return (
    <div className="pp-heading">
      <div className="pp-title-row">
        <div className="pp-min0">
          <h1 className="pp-h1">{business.businessName}</h1>
          {typeLabel && (
            <div className="pp-badge" data-testid="business-type">
              {typeLabel}
            </div>
          )}
        </div>
        {showFavourite && <FavouriteButton businessId={business.id} onSignInNeeded={onFavouriteSignIn} />}
      </div>
      <p className="pp-text pp-dimmed pp-wrap pp-about">
        {business.description?.trim() ? business.description : 'No description available.'}
      </p>
    </div>
  );
});
