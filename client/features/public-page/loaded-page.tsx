import { Alert, Button, Group, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { useCallback, useState } from 'react';
import { MSG } from '../../../shared/messages';
import { useAuth } from '../auth/use-auth';
import { BusinessContactCard } from './business-contact-card';
import { BusinessHeader } from './business-header';
import type { SignInReason } from './sign-in-dialog';
import './public-page.css';
import { SlotList } from './slot-list';
import { useSlotsErrorToast } from './slots-notices';
import type { PublicData, Slot } from './use-business-by-slug';
import { lazyDialog, usePreloadOnFirstInteraction } from '../../lib/lazy-dialog';

// The dialogs load apart from the page (ADR 0055), ahead of time once the page is idle.
const SignInDialog = lazyDialog(
  () => import('./sign-in-dialog').then((m) => m.SignInDialog),
  (p) => p.reason !== null,
);
const RequestDialog = lazyDialog(
  () => import('./request-dialog').then((m) => m.RequestDialog),
  (p) => p.slot !== null,
);

/**
 * The loaded page: the owner's preview notice, the heading, the slot list, the contact card and the
 * sign-in and request dialogs. `refreshError` is the last failed refresh (null when none). The frame
 * (container, two columns from md) is plain elements styled by ./public-page.css (ADR 0115).
 */
export function LoadedPage({
  data,
  slug,
  refreshError,
  refreshing,
  onRetry,
}: {
  data: PublicData;
  slug: string;
  refreshError: unknown;
  refreshing: boolean;
  onRetry: () => void;
}) {
  const { business, slots } = data;
  const { user } = useAuth();
  const isOwner = user?.id === business.id;
  const isBusinessViewer = user?.role === 'business';
  const canRequest = user?.role === 'customer' && user.isVerified;
  // Business users and page owners see no request or favourite buttons.
  const showRequestButtons = !isOwner && !isBusinessViewer;
  const [signIn, setSignIn] = useState<SignInReason | null>(null);
  const [requesting, setRequesting] = useState<Slot | null>(null);
  // Stable, so the memoised header and slot list skip the page's re-render when the session answers.
  const signInToFavourite = useCallback(() => setSignIn('favourite'), []);
  const signInToRequest = useCallback(() => setSignIn('request'), []);
  useSlotsErrorToast(refreshError);
  usePreloadOnFirstInteraction(RequestDialog, SignInDialog);

  return (
    <div className="pp-page">
      {isOwner && (
        <Alert color="blue" variant="light" mb="lg" title={MSG.pagePreview} data-testid="owner-preview">
          <Group justify="space-between" gap="xs" wrap="wrap">
            <Text size="sm">This is how customers see your booking page. Share its link or QR code.</Text>
            <Button component={Link} to="/dashboard" size="xs">
              {MSG.pageGoToDashboard}
            </Button>
          </Group>
        </Alert>
      )}
      <BusinessHeader
        business={business}
        showFavourite={showRequestButtons}
        onFavouriteSignIn={user?.role === 'customer' ? undefined : signInToFavourite}
      />

      <div className="pp-grid">
        <div className="pp-col-main">
          <SlotList
            slots={slots}
            isOwner={isOwner}
            isBusinessViewer={isBusinessViewer}
            showRequestButtons={showRequestButtons}
            canRequest={canRequest}
            refreshError={refreshError}
            refreshing={refreshing}
            onRetry={onRetry}
            onRequest={setRequesting}
            onSignIn={signInToRequest}
          />
        </div>
        <div className="pp-col-side">
          <div className="pp-sticky">
            <BusinessContactCard business={business} />
          </div>
        </div>
      </div>

      <SignInDialog
        reason={signIn}
        onClose={() => setSignIn(null)}
        unverified={Boolean(user && user.role === 'customer' && !user.isVerified)}
      />
      <RequestDialog
        slot={requesting}
        slug={slug}
        businessName={business.businessName}
        onClose={() => setRequesting(null)}
        onSignInNeeded={() => {
          setRequesting(null);
          setSignIn('request');
        }}
      />
    </div>
  );
}
