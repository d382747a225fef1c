import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/InlineInput.css';
import '@mantine/core/styles/Radio.css';
import '@mantine/core/styles/RadioIndicator.css';
import { Alert, Anchor, Button, Group, Radio, Stack, Text, TextInput } from '@mantine/core';
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { MSG } from '../../../shared/messages';
import { EMAIL_PATTERN, registerCustomerInput } from '../../../shared/schemas/auth';
import { PASSWORD_MIN } from '../../../shared/schemas/limits';
import { AuthCard } from './auth-card';
import { EmailField, FormErrorAlert } from './form-parts';
import { PasswordField } from './password-field';
import { confirmBanner } from './confirm-banner';
import { clearPendingRegistration, rememberCheckEmail, savePendingRegistration } from './pending-registration';
import { notifyEmailThrottled } from './email-notices';
import type { RegisterRole } from './search-params';
import { errorInfo, trpc, type ErrorInfo } from '../../lib/trpc';
import { usePageTitle } from '../../lib/use-page-title';

type Role = RegisterRole;

const route = getRouteApi('/register');

type Field = 'name' | 'email' | 'password';

/**
 * Messages of the register form: live while typing, and the blur variant of the email message once
 * the field has been left.
 */
function fieldError(field: Field, value: string, typed: boolean, blurred: boolean): string | null {
  if (!typed && !blurred) return null;
  switch (field) {
    case 'name':
      return value.trim() === '' ? MSG.fullNameRequired : null;
    case 'email': {
      const v = value.trim();
      if (v === '') return blurred ? MSG.emailRequired : null;
      if (!EMAIL_PATTERN.test(v)) return blurred ? MSG.validEmail : MSG.invalidEmailFormat;
      return null;
    }
    case 'password':
      if (value === '') return MSG.passwordRequired;
      if (value.length < PASSWORD_MIN) return MSG.passwordMin;
      return null;
  }
}

export function RegisterPage() {
  usePageTitle('Create account');
  const search = route.useSearch();
  const navigate = useNavigate();
  const [values, setValues] = useState({ name: '', email: '', password: '' });
  const [role, setRole] = useState<Role>(search.role ?? 'business');
  const [typed, setTyped] = useState<Record<Field, boolean>>({ name: false, email: false, password: false });
  const [blurred, setBlurred] = useState<Record<Field, boolean>>({ name: false, email: false, password: false });
  const [serverErrors, setServerErrors] = useState<Partial<Record<Field, string>>>({});
  const [alert, setAlert] = useState<ErrorInfo | null>(null);
  const registerCustomer = trpc.auth.registerCustomer.useMutation();

  const valid = registerCustomerInput.safeParse(values).success;

  function bind(field: Field) {
    return {
      value: values[field],
      onChange: (e: React.ChangeEvent<HTMLInputElement>) => {
        const value = e.currentTarget.value;
        setValues((v) => ({ ...v, [field]: value }));
        setTyped((t) => ({ ...t, [field]: true }));
        setServerErrors((s) => ({ ...s, [field]: undefined }));
      },
      onBlur: () => setBlurred((b) => ({ ...b, [field]: true })),
      error: serverErrors[field] ?? fieldError(field, values[field], typed[field], blurred[field]),
    };
  }

  async function onSubmit(e: React.FormEvent) {
    e.preventDefault();
    setAlert(null);
    const parsed = registerCustomerInput.safeParse(values);
    if (!parsed.success) {
      setTyped({ name: true, email: true, password: true });
      setBlurred({ name: true, email: true, password: true });
      setAlert({ message: MSG.fixValidation });
      return;
    }
    const { name, email, password } = parsed.data;
    if (role === 'business') {
      savePendingRegistration({ email, password, name, role: 'business', businessName: '', businessSlug: '' });
      await navigate({ to: '/complete-business-profile' });
      return;
    }
    try {
      const result = await registerCustomer.mutateAsync({ name, email, password });
      // Signed up: no business sign-up (with its password) is pending any more.
      clearPendingRegistration();
      rememberCheckEmail(result.email);
      confirmBanner.raise('customer');
      if (result.emailThrottled) notifyEmailThrottled();
      await navigate({ to: '/check-email', state: { email: result.email } });
    } catch (err) {
      const info = errorInfo(err);
      const fields = info.fieldErrors ?? {};
      setServerErrors({ name: fields.name, email: fields.email, password: fields.password });
      setAlert(info);
    }
  }

  return (
    <AuthCard title="Create your account" subtitle="It takes a minute. Businesses then set up their booking page.">
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          <FormErrorAlert error={alert} />
          <Radio.Group
            label="Account type"
            value={role}
            onChange={(v) => setRole(v === 'customer' ? 'customer' : 'business')}
          >
            <Group mt={8} gap="sm" grow preventGrowOverflow={false} wrap="wrap">
              <RoleOption
                value="business"
                label="Business"
                description="Publish slots, accept bookings"
                active={role === 'business'}
              />
              <RoleOption
                value="customer"
                label="Customer"
                description="Book from a business's link"
                active={role === 'customer'}
              />
            </Group>
          </Radio.Group>
          {role === 'customer' && (
            <Alert color="blue" variant="light">
              Only sign up as a customer if you have a direct booking link from a business.
            </Alert>
          )}
          <TextInput label="Full name" autoComplete="name" placeholder="Jane Smith" withAsterisk {...bind('name')} />
          <EmailField {...bind('email')} />
          <PasswordField
            label="Password"
            autoComplete="new-password"
            placeholder="At least 8 characters"
            description="At least 8 characters, ideally letters and numbers."
            withAsterisk
            {...bind('password')}
          />
          <Button type="submit" fullWidth size="md" disabled={!valid} loading={registerCustomer.isPending}>
            {role === 'business' ? 'Continue' : 'Create Account'}
          </Button>
          {role === 'business' && (
            <Text size="xs" c="dimmed" ta="center" mt={-8}>
              Next: your business details and opening hours.
            </Text>
          )}
          <Text size="sm" ta="center" c="dimmed">
            Already have an account?{' '}
            <Anchor component={Link} to="/login" fw={600}>
              Log in
            </Anchor>
          </Text>
        </Stack>
      </form>
    </AuthCard>
  );
}

function RoleOption({
  value,
  label,
  description,
  active,
}: {
  value: Role;
  label: string;
  description: string;
  active: boolean;
}) {
  return (
    <Radio
      value={value}
      label={label}
      description={description}
      p="sm"
      style={{
        border: `1px solid var(--mantine-color-${active ? 'brand-6' : 'gray-3'})`,
        borderRadius: 'var(--mantine-radius-md)',
        background: active ? 'var(--mantine-color-brand-0)' : undefined,
        minWidth: 160,
      }}
    />
  );
}
