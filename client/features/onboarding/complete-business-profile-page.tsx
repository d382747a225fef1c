import { Text } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { Navigate, useNavigate } from '@tanstack/react-router';
import { useEffect, useMemo, useState } from 'react';
import { DEFAULT_CATEGORY } from '../../../shared/categories';
import { MSG } from '../../../shared/messages';
import { defaultWeeklySchedule } from '../../../shared/opening-hours';
import { completeBusinessProfileInput } from '../../../shared/schemas/auth';
import { AuthCard } from '../auth/auth-card';
import { refreshMe } from '../auth/guards';
import { useAuth } from '../auth/use-auth';
import { FullPageLoader } from '../layout/full-page-loader';
import { readPendingRegistration } from '../auth/pending-registration';
import { errorInfo, trpc } from '../../lib/trpc';
import { usePageTitle } from '../../lib/use-page-title';
import { BusinessDetailsSection, ProfileForm, slugFromName, type ProfileValues } from './profile-form';
import { rememberLocationStep } from './location-step';
import { PendingRegistrationForm } from './pending-registration-form';
import { useAppOrigin } from '../../lib/use-app-origin';

export function CompleteBusinessProfilePage() {
  usePageTitle('Complete your business profile');
  const pending = useMemo(() => readPendingRegistration(), []);
  const { authState } = useAuth();

  // A visitor without a registration waiting in this tab has nothing to complete (the route's guard
  // cannot see the tab's storage when the server runs it).
  if (!pending && authState === 'unregistered') return <Navigate to="/register" replace />;
  // Signed in as a business whose profile is missing: the logged-in variant.
  if (!pending) return <SignedInProfileForm />;
  return <PendingRegistrationForm pending={pending} />;
}

/**
 * Logged-in variant: name, description and address required; the username is derived from the name
 * by the server (a number is added when it is taken).
 */
function SignedInProfileForm() {
  const origin = useAppOrigin();
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
    if (user) rememberLocationStep(user.email);
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
            {origin}/{preview || 'your-business-name'}
          </Text>{' '}
          (a number is added if that address is taken; you can change it later in Settings).
        </Text>
      </ProfileForm>
    </AuthCard>
  );
}
