import { PLAIN_BUTTON } from '../layout/plain-controls';

/**
 * A slot's request control, on the business page and in Discover: 'Request' (its accessible name
 * `requestLabel` says which slot) for a customer who may request, 'Login or Sign Up to Request'
 * otherwise. A plain <button> drawn like Mantine's Button (filled, or light for sign-in; size sm):
 * one per slot, so the page renders no Mantine component per slot (ADR 0115).
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
    <button type="button" className={PLAIN_BUTTON} onClick={onRequest} aria-label={requestLabel}>
      <span>Request</span>
    </button>
  ) : (
    <button type="button" className={PLAIN_BUTTON} data-variant="light" onClick={onSignIn}>
      <span>Login or Sign Up to Request</span>
    </button>
  );
}
