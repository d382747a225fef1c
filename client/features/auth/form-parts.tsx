/** Pieces shared by the sign-in, sign-up and password reset forms. */
import '@mantine/core/styles/Input.css';
import { Alert, TextInput, type TextInputProps } from '@mantine/core';
import type { ReactNode } from 'react';
import type { ErrorInfo } from '../../lib/trpc';

/** The red box above a form with a failure's title and message (`children` in place of the message). */
export function FormErrorAlert({ error, children }: { error: ErrorInfo | null; children?: ReactNode }) {
  if (!error) return null;
  return (
    <Alert color="red" variant="light" title={error.title} role="alert">
      {children ?? error.message}
    </Alert>
  );
}

/** The required 'Email' input. */
export function EmailField(props: TextInputProps) {
  return (
    <TextInput label="Email" type="email" autoComplete="email" placeholder="you@example.com" withAsterisk {...props} />
  );
}
