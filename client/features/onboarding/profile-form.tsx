import '@mantine/core/styles/Divider.css';
import '@mantine/core/styles/Input.css';
import { Alert, Button, Divider, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { type UseFormReturnType } from '@mantine/form';
import { type WeeklySchedule } from '../../../shared/opening-hours';
import { USERNAME_MAX } from '../../../shared/schemas/limits';
import { ScheduleEditor } from './schedule-editor';
import { CategoryField, DescriptionField, notifyValidation } from '../settings/business-profile-fields';

/** Slug suggested from the business name: lowercased, punctuation removed, spaces to hyphens. */
export function slugFromName(name: string): string {
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

/** The profile form's values (both variants). */
export interface ProfileValues {
  businessName: string;
  description: string;
  category: string;
  address: string;
  phone: string;
  slug: string;
  schedule: WeeklySchedule;
}

export type ProfileFormState = UseFormReturnType<ProfileValues>;

/**
 * The page's form around `children` (both variants): the failure box, then `children`, the
 * opening hours and 'Complete Profile'. Invalid fields toast 'Validation Error'.
 */
export function ProfileForm({
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
export function BusinessDetailsSection({
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
        description="It also puts your business in Discover for customers nearby; you can fine-tune the pin later."
        inputWrapperOrder={['label', 'input', 'description', 'error']}
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

/** A titled group of fields, with an optional description under the title. */
export function Section({
  title,
  description,
  children,
}: {
  title: string;
  description?: string;
  children: React.ReactNode;
}) {
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
