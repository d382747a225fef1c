import { Alert, Anchor, Button, Divider, Loader, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { schemaResolver, useForm, type UseFormReturnType } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { Link, useNavigate } from '@tanstack/react-router';
import { useEffect, useMemo, useState } from 'react';
import { DEFAULT_CATEGORY } from '../../../shared/categories';
import { MSG } from '../../../shared/messages';
import { defaultWeeklySchedule, type WeeklySchedule } from '../../../shared/opening-hours';
import { businessProfileFields, completeBusinessProfileInput } from '../../../shared/schemas/auth';
import { USERNAME_MAX } from '../../../shared/schemas/limits';
import { AuthCard } from '../auth/auth-card';
import { refreshMe } from '../auth/guards';
import { useAuth } from '../auth/use-auth';
import { FullPageLoader } from '../layout/full-page-loader';
import { ScheduleEditor } from './schedule-editor';
import { useSlugCheck } from './use-slug-check';
import { CategoryField, DescriptionField, notifyValidation } from '../settings/business-profile-fields';
import { urlPrefixProps } from '../settings/url-prefix';
import {
  clearPendingRegistration,
  readPendingRegistration,
  rememberCheckEmail,
  savePendingRegistration,
} from '../auth/pending-registration';
import { notifyEmailThrottled } from '../auth/email-notices';
import { confirmBanner } from '../auth/confirm-banner';
import { errorInfo, trpc } from '../../lib/trpc';
import { usePageTitle } from '../../lib/use-page-title';

/** Slug suggested from the business name: lowercased, punctuation removed, spaces to hyphens. */
function slugFromName(name: string): string {
  return name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9\s-]/g, '')
    .trim()
    .replace(/[\s-]+/g, '-')
    .slice(0, USERNAME_MAX)
    .replace(/-+$/, '');
}

interface ProfileValues {
  businessName: string;
  description: string;
  category: string;
  address: string;
  phone: string;
  slug: string;
  schedule: WeeklySchedule;
}

export function CompleteBusinessProfilePage() {
  usePageTitle('Complete your business profile');
  const pending = useMemo(() => readPendingRegistration(), []);

  // Signed in as a business whose profile is missing: the logged-in variant.
  if (!pending) return <SignedInProfileForm />;
  return <PendingRegistrationForm pending={pending} />;
}

/**
 * Logged-in variant: name, description and address required; the username is derived from the name
 * by the server (a number is added when it is taken).
 */
function SignedInProfileForm() {
  const navigate = useNavigate();
  const utils = trpc.useUtils();
  const { user, isLoading } = useAuth();
  const complete = trpc.businesses.completeProfile.useMutation();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<ProfileValues>({
    mode: 'controlled',
    initialValues: {
      businessName: '',
      description: '',
      category: DEFAULT_CATEGORY,
      address: '',
      phone: '',
      slug: '',
      schedule: defaultWeeklySchedule(),
    },
    validate: schemaResolver(completeBusinessProfileInput, { sync: true }),
    validateInputOnBlur: ['businessName', 'description', 'category', 'address', 'phone'],
  });

  // Nobody signed in is told so, then sent to log in.
  useEffect(() => {
    if (isLoading || user) return;
    notifications.show({ id: 'must-be-logged-in', color: 'red', title: 'Error', message: MSG.mustBeLoggedIn });
    void navigate({ to: '/login', replace: true });
  }, [isLoading, user, navigate]);

  async function onSubmit(values: ProfileValues) {
    setFormError(null);
    const parsed = completeBusinessProfileInput.parse(values);
    try {
      await complete.mutateAsync(parsed);
    } catch (err) {
      const info = errorInfo(err);
      if (info.fieldErrors) {
        for (const [key, text] of Object.entries(info.fieldErrors)) form.setFieldError(key, text);
      }
      const message = info.message || MSG.profileCompleteFailed;
      setFormError(message);
      notifications.show({ color: 'red', title: info.title ?? 'Error', message });
      return;
    }
    await refreshMe(utils);
    notifications.show({ color: 'green', title: MSG.profileCompletedTitle, message: 'Your booking page is ready.' });
    await navigate({ to: '/dashboard', replace: true });
  }

  if (!user) return <FullPageLoader label="Loading..." />;
  const preview = slugFromName(form.values.businessName);
  return (
    <AuthCard
      size={760}
      title="Complete your business profile"
      subtitle={`Signed in as ${user.email}. Tell customers about your business and when you are open.`}
    >
      <ProfileForm form={form} onSubmit={onSubmit} formError={formError} submitting={complete.isPending}>
        <BusinessDetailsSection form={form} />
        <Text size="sm" c="dimmed">
          Your booking page will be at{' '}
          <Text span fw={600} c="dark" style={{ overflowWrap: 'anywhere' }}>
            {window.location.origin}/{preview || 'your-business-name'}
          </Text>{' '}
          (a number is added if that address is taken; you can change it later in Settings).
        </Text>
      </ProfileForm>
    </AuthCard>
  );
}

function PendingRegistrationForm({ pending }: { pending: NonNullable<ReturnType<typeof readPendingRegistration>> }) {
  const navigate = useNavigate();
  const registerBusiness = trpc.auth.registerBusiness.useMutation();
  const [slugEdited, setSlugEdited] = useState(Boolean(pending.businessSlug));
  const [formError, setFormError] = useState<string | null>(null);

  const form = useForm<ProfileValues>({
    mode: 'controlled',
    initialValues: {
      businessName: pending.businessName,
      description: '',
      category: DEFAULT_CATEGORY,
      address: '',
      phone: '',
      slug: pending.businessSlug,
      schedule: defaultWeeklySchedule(),
    },
    validate: schemaResolver(businessProfileFields, { sync: true }),
    validateInputOnBlur: ['businessName', 'description', 'category', 'address', 'phone'],
  });

  const slug = useSlugCheck(form.values.slug);
  const origin = typeof window === 'undefined' ? '' : window.location.origin;

  function remember(values: Partial<ProfileValues>) {
    // Keep name and slug with the pending registration so a reload keeps them.
    const next = { ...form.values, ...values };
    savePendingRegistration({ ...pending, businessName: next.businessName, businessSlug: next.slug });
  }

  function onBusinessNameChange(e: React.ChangeEvent<HTMLInputElement>) {
    const businessName = e.currentTarget.value;
    form.setFieldValue('businessName', businessName);
    if (!slugEdited) form.setFieldValue('slug', slugFromName(businessName));
    remember({ businessName, ...(slugEdited ? {} : { slug: slugFromName(businessName) }) });
  }

  function onSlugChange(e: React.ChangeEvent<HTMLInputElement>) {
    const value = e.currentTarget.value.toLowerCase().replace(/\s+/g, '-');
    setSlugEdited(true);
    form.setFieldValue('slug', value);
    form.clearFieldError('slug');
    remember({ slug: value });
  }

  const slugError = form.errors.slug ?? (slug.state === 'taken' || slug.state === 'invalid' ? slug.message : null);

  async function onSubmit(values: ProfileValues) {
    setFormError(null);
    if (slug.state !== 'valid') {
      form.setFieldError(
        'slug',
        slug.state === 'checking' ? 'Please wait while we check this username' : MSG.usernameInvalidOrTaken,
      );
      return;
    }
    const parsed = businessProfileFields.parse(values);
    try {
      const result = await registerBusiness.mutateAsync({
        name: pending.name,
        email: pending.email,
        password: pending.password,
        businessName: parsed.businessName,
        slug: parsed.slug,
        category: parsed.category,
        description: parsed.description,
        address: parsed.address,
        phone: parsed.phone,
        schedule: parsed.schedule,
      });
      clearPendingRegistration();
      rememberCheckEmail(result.email);
      confirmBanner.raise('business');
      if (result.emailThrottled) notifyEmailThrottled();
      notifications.show({ color: 'green', title: MSG.profileCompletedTitle, message: MSG.profileCompleted });
      await navigate({ to: '/check-email', state: { email: result.email } });
    } catch (err) {
      const info = errorInfo(err);
      if (info.field === 'slug') {
        slug.markTaken(info.message);
        form.setFieldError('slug', info.message);
      }
      if (info.fieldErrors) {
        for (const [key, text] of Object.entries(info.fieldErrors)) form.setFieldError(key, text);
      }
      setFormError(info.message || MSG.profileCompleteFailed);
      notifications.show({
        color: 'red',
        title: info.title ?? 'Error',
        message: info.message || MSG.profileCompleteFailed,
      });
    }
  }

  return (
    <AuthCard
      size={760}
      title="Complete your business profile"
      subtitle={
        <>
          Almost there, {pending.name}. Tell customers about your business and when you are open. Signing up as{' '}
          <Text span fw={600} c="dark">
            {pending.email}
          </Text>{' '}
          (
          <Anchor component={Link} to="/register" size="sm">
            change
          </Anchor>
          ).
        </>
      }
    >
      <ProfileForm form={form} onSubmit={onSubmit} formError={formError} submitting={registerBusiness.isPending}>
        <BusinessDetailsSection form={form} onBusinessNameChange={onBusinessNameChange} />

        <Section title="Your booking page">
          <TextInput
            label="Username"
            withAsterisk
            autoCapitalize="none"
            autoCorrect="off"
            spellCheck={false}
            placeholder="studio-nine-hair"
            value={form.values.slug}
            onChange={onSlugChange}
            error={slugError}
            success={slug.state === 'valid' ? 'This username is available' : undefined}
            description="Letters, numbers and hyphens. Customers book at this address."
            {...urlPrefixProps(`${origin}/`, '50%')}
            rightSection={slug.state === 'checking' ? <Loader size={16} /> : undefined}
          />
          <Text size="xs" c="dimmed" aria-live="polite" mt={-8}>
            {slug.state === 'checking' ? 'Checking availability...' : ''}
          </Text>
        </Section>
      </ProfileForm>
    </AuthCard>
  );
}

type ProfileFormState = UseFormReturnType<ProfileValues>;

/**
 * The page's form around `children` (both variants): the failure box, then `children`, the
 * opening hours and 'Complete Profile'. Invalid fields toast 'Validation Error'.
 */
function ProfileForm({
  form,
  onSubmit,
  formError,
  submitting,
  children,
}: {
  form: ProfileFormState;
  onSubmit: (values: ProfileValues) => Promise<void>;
  formError: string | null;
  submitting: boolean;
  children: React.ReactNode;
}) {
  return (
    <form onSubmit={form.onSubmit(onSubmit, notifyValidation)} noValidate>
      <Stack gap="lg">
        {formError && (
          <Alert color="red" variant="light" role="alert">
            {formError}
          </Alert>
        )}
        {children}
        <OpeningHoursSection form={form} />
        <Button type="submit" size="md" fullWidth loading={submitting}>
          Complete Profile
        </Button>
      </Stack>
    </form>
  );
}

/** Business name, description, category, phone and address (both variants of the page). */
function BusinessDetailsSection({
  form,
  onBusinessNameChange,
}: {
  form: ProfileFormState;
  onBusinessNameChange?: (e: React.ChangeEvent<HTMLInputElement>) => void;
}) {
  return (
    <Section title="Business details">
      <TextInput
        label="Business name"
        placeholder="Studio Nine Hair"
        withAsterisk
        {...form.getInputProps('businessName')}
        {...(onBusinessNameChange ? { onChange: onBusinessNameChange } : {})}
      />
      <DescriptionField placeholder="What you offer, in a sentence or two" {...form.getInputProps('description')} />
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <CategoryField {...form.getInputProps('category')} />
        <TextInput
          label="Phone (optional)"
          type="tel"
          autoComplete="tel"
          placeholder="020 7946 0000"
          {...form.getInputProps('phone')}
        />
      </SimpleGrid>
      <TextInput
        label="Address"
        autoComplete="street-address"
        placeholder="12 High Street, London SW1A 1AA"
        withAsterisk
        {...form.getInputProps('address')}
      />
    </Section>
  );
}

/** Weekly opening hours, starting from the default week (both variants of the page). */
function OpeningHoursSection({ form }: { form: ProfileFormState }) {
  return (
    <Section title="Opening hours" description="Customers see these hours; slots can only be added while you are open.">
      <ScheduleEditor
        value={form.values.schedule}
        onChange={(schedule) => form.setFieldValue('schedule', schedule)}
        error={typeof form.errors.schedule === 'string' ? form.errors.schedule : null}
      />
    </Section>
  );
}

function Section({ title, description, children }: { title: string; description?: string; children: React.ReactNode }) {
  return (
    <Stack gap="sm">
      <div>
        <Title order={2} fz="lg">
          {title}
        </Title>
        {description && (
          <Text size="sm" c="dimmed">
            {description}
          </Text>
        )}
      </div>
      <Divider />
      {children}
    </Stack>
  );
}
