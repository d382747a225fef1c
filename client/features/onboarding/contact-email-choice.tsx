import '@mantine/core/styles/Radio.css';
import '@mantine/core/styles/InlineInput.css';
import '@mantine/core/styles/RadioIndicator.css';
import '@mantine/core/styles/Input.css';
import { Radio, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { MSG } from '../../../shared/messages';
import { contactEmailSchema } from '../../../shared/schemas/auth';

type Choice = 'sign-in' | 'other' | 'none';

/**
 * The business sign-up's choice of the email shown on its public page (docs/decisions/0096): the
 * sign-in email (the default), another address, or none. `contactEmail()` gives the value of
 * `auth.registerBusiness`'s `contactEmail` (undefined: the sign-in email; null: none), or shows the
 * field's message and gives false when the other address is missing or invalid.
 */
export function useContactEmailChoice() {
  const [choice, setChoice] = useState<Choice>('sign-in');
  const [other, setOther] = useState('');
  const [error, setError] = useState<string | null>(null);

  function contactEmail(): string | null | undefined | false {
    if (choice === 'sign-in') return undefined;
    if (choice === 'none') return null;
    if (other.trim() === '') {
      setError(MSG.emailRequired);
      return false;
    }
    const parsed = contactEmailSchema.safeParse(other);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? MSG.validEmail);
      return false;
    }
    return parsed.data;
  }

  return { choice, setChoice, other, setOther, error, setError, contactEmail };
}

/** The choice's radio buttons, with the other address's field when that is chosen. */
export function ContactEmailChoice({
  signInEmail,
  state,
}: {
  signInEmail: string;
  state: ReturnType<typeof useContactEmailChoice>;
}) {
  return (
    <Stack gap="xs">
      <Radio.Group
        label="Email on your booking page"
        description="Customers see it on your page to contact you. You can change it later in Settings."
        value={state.choice}
        onChange={(v) => {
          state.setChoice(v === 'other' || v === 'none' ? v : 'sign-in');
          state.setError(null);
        }}
      >
        <Stack gap="xs" mt={8}>
          <Radio value="sign-in" label="My sign-in email" description={signInEmail} />
          <Radio value="other" label="A different email" />
          <Radio value="none" label="No email" description="Customers see your address and phone number only." />
        </Stack>
      </Radio.Group>
      {state.choice === 'other' && (
        <TextInput
          label="Business email"
          type="email"
          autoComplete="email"
          placeholder="bookings@example.com"
          withAsterisk
          value={state.other}
          onChange={(e) => {
            state.setOther(e.currentTarget.value);
            state.setError(null);
          }}
          error={state.error}
        />
      )}
    </Stack>
  );
}
