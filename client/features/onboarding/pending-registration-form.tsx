import '@mantine/core/styles/Input.css';
import { Anchor, Loader, Text, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { DEFAULT_CATEGORY } from '../../../shared/categories';
import { MSG } from '../../../shared/messages';
import { defaultWeeklySchedule } from '../../../shared/opening-hours';
import { businessProfileFields } from '../../../shared/schemas/auth';
import { AuthCard } from '../auth/auth-card';
import { useSlugCheck } from './use-slug-check';
import { urlPrefixProps } from '../settings/url-prefix';
import type { readPendingRegistration } from '../auth/pending-registration';
import { clearPendingRegistration, rememberCheckEmail, savePendingRegistration } from '../auth/pending-registration';
import { notifyEmailThrottled } from '../auth/email-notices';
import { confirmBanner } from '../auth/confirm-banner';
import { errorInfo, trpc } from '../../lib/trpc';
import { BusinessDetailsSection, ProfileForm, Section, slugFromName, type ProfileValues } from './profile-form';
import { useAppOrigin } from '../../lib/use-app-origin';
import { rememberLocationStep } from './location-step';
import { ContactEmailChoice, useContactEmailChoice } from './contact-email-choice';

/**
 * Sign-up variant: the business's registration waits in session storage (kept as it is typed); the
 * username is suggested from the name until edited and checked while typed. Submitting creates the
 * account and goes to /check-email.
 */
export function PendingRegistrationForm({
  pending,
}: {
  pending: NonNullable<ReturnType<typeof readPendingRegistration>>;
}) {
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
  const origin = useAppOrigin();
  const contact = useContactEmailChoice();

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
    const contactEmail = contact.contactEmail();
    if (contactEmail === false) return;
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
        contactEmail,
      });
      clearPendingRegistration();
      rememberCheckEmail(result.email);
      rememberLocationStep(result.email);
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
        if (info.fieldErrors.contactEmail) contact.setError(info.fieldErrors.contactEmail);
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
          <ContactEmailChoice signInEmail={pending.email} state={contact} />
        </Section>
      </ProfileForm>
    </AuthCard>
  );
}
