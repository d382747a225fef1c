import { Button, type ButtonProps } from '@mantine/core';
import { Link } from '@tanstack/react-router';

/** The 'Back to Home' button of the error, not-found and gate screens (a link to /). */
export function BackToHome({ variant = 'default' }: { variant?: ButtonProps['variant'] }) {
  return (
    <Button component={Link} to="/" variant={variant}>
      Back to Home
    </Button>
  );
}
