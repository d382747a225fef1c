import { Button } from '@mantine/core';

/**
 * A slot's request control, on the business page and in Discover: 'Request' (its accessible name
 * `requestLabel` says which slot) for a customer who may request, 'Login or Sign Up to Request'
 * otherwise.
 */
export function RequestButton({
  canRequest,
  requestLabel,
  onRequest,
  onSignIn,
}: {
  canRequest: boolean;
  requestLabel: string;
  onRequest: () => void;
  onSignIn: () => void;
}) {
  return canRequest ? (
    <Button onClick={onRequest} aria-label={requestLabel}>
      Request
    </Button>
  ) : (
    <Button variant="light" onClick={onSignIn}>
      Login or Sign Up to Request
    </Button>
  );
}
