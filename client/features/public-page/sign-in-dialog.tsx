import '@mantine/core/styles/Overlay.css';
import '@mantine/core/styles/ModalBase.css';
import '@mantine/core/styles/Modal.css';
import { Button, Modal, Stack, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { MSG } from '../../../shared/messages';

/** Why a visitor is asked to sign in: to request a slot, to save a favourite, or to save an alert (Discover). */
export type SignInReason = 'request' | 'favourite' | 'alert';

/**
 * Asks a visitor to sign in: Log In, or Create an Account at /register?role=customer. Requesting
 * uses MSG.loginToBook, saving an alert MSG.alertSignIn; a signed-in customer who has not confirmed the email is told to verify it.
 */
export function SignInDialog({
  reason,
  onClose,
  unverified,
}: {
  reason: SignInReason | null;
  onClose: () => void;
  unverified: boolean;
}) {
  const title = unverified
    ? 'Email verification required'
    : reason === 'favourite'
      ? 'Sign in to save favourites'
      : reason === 'alert'
        ? MSG.alertSignInTitle
        : 'Sign in to request';
  const ask =
    reason === 'favourite'
      ? 'Please log in to save your favourite businesses'
      : reason === 'alert'
        ? MSG.alertSignIn
        : MSG.loginToBook;
  return (
    <Modal opened={reason !== null} onClose={onClose} title={title}>
      <Stack gap="md">
        {unverified ? (
          <>
            <Text size="sm">{MSG.verifyToBook}</Text>
            <Button component={Link} to="/check-email" onClick={onClose}>
              Resend confirmation email
            </Button>
          </>
        ) : (
          <>
            <Text size="sm" fw={600}>
              {ask}
            </Text>
            <Text size="sm" c="dimmed">
              New here? Creating a customer account is free.
            </Text>
            <Button component={Link} to="/login">
              Log In
            </Button>
            <Button
              renderRoot={(props) => <Link to="/register" search={{ role: 'customer' }} {...props} />}
              variant="default"
            >
              Create an Account
            </Button>
          </>
        )}
      </Stack>
    </Modal>
  );
}
