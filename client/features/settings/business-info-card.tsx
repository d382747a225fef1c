import '@mantine/core/styles/Popover.css';
import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/Combobox.css';
import { Button, Card, Group, Loader, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMemo } from 'react';
import { MSG } from '../../../shared/messages';
import { BUSINESS_URL_MAX, BUSINESS_URL_MIN } from '../../../shared/schemas/limits';
import {
  normaliseSlugInput,
  updateBusinessProfileInput,
  type UpdateBusinessProfileInput,
} from '../../../shared/schemas/settings';
import { noticeFor, useTimedMutation } from '../../lib/requests';
import { trpc, trpcClient, type RouterOutputs } from '../../lib/trpc';
import { CategoryField, DescriptionField, notifyValidation } from './business-profile-fields';
import { CardHeading } from './card-heading';
import { timezoneOptions } from './timezones';
import { useBusinessSlugCheck } from './use-business-slug-check';
import { urlPrefixProps } from './url-prefix';
import { useAppOrigin } from '../../lib/use-app-origin';

type BusinessSettings = RouterOutputs['settings']['business'];

interface InfoValues {
  businessName: string;
  slug: string;
  contactName: string;
  category: string;
  description: string;
  address: string;
  phone: string;
  email: string;
  timezone: string;
}

function valuesOf(s: BusinessSettings): InfoValues {
  return {
    businessName: s.businessName,
    slug: s.slug,
    contactName: s.contactName,
    category: s.category,
    description: s.description,
    address: s.address ?? '',
    phone: s.phoneNumber ?? '',
    email: s.emailAddress ?? '',
    timezone: s.timezone,
  };
}

/**
 * Business Information: name, Business URL with a live availability check, contact name, category,
 * description, address, phone, business email and time zone.
 */
export function BusinessInfoCard({ settings }: { settings: BusinessSettings }) {
  const utils = trpc.useUtils();
  const save = useTimedMutation(trpcClient.settings.updateBusinessProfile);
  const form = useForm<InfoValues>({
    mode: 'controlled',
    initialValues: valuesOf(settings),
    validate: schemaResolver(updateBusinessProfileInput, { sync: true }),
    validateInputOnBlur: ['businessName', 'contactName', 'description', 'email'],
  });
  const slug = useBusinessSlugCheck(form.values.slug, settings.slug);
  const zones = useMemo(() => timezoneOptions(settings.timezone), [settings.timezone]);
  const origin = useAppOrigin();

  const slugBlocked = slug.state === 'invalid' || slug.state === 'taken';
  const blockForSlug = () =>
    notifications.show({ color: 'red', title: MSG.validationErrorTitle, message: MSG.slugFixBeforeSave });

  /** Invalid fields: a bad Business URL blocks the save first, else the first 'X is required'. */
  function onInvalid(errors: Record<string, unknown>) {
    if (errors.slug || slugBlocked) blockForSlug();
    else notifyValidation(errors);
  }

  async function onSubmit(values: InfoValues) {
    if (slugBlocked) {
      form.setFieldError('slug', slug.message ?? MSG.slugFormat);
      blockForSlug();
      return;
    }
    const input: UpdateBusinessProfileInput = updateBusinessProfileInput.parse(values);
    let result: { slug: string; slugChanged: boolean };
    try {
      result = await save.mutateAsync(input);
    } catch (err) {
      const notice = noticeFor(err, { timeout: MSG.profileSaveTimeout });
      if (notice.field === 'slug') {
        slug.markTaken(notice.message);
        form.setFieldError('slug', notice.message);
      }
      for (const [key, text] of Object.entries(notice.fieldErrors ?? {})) form.setFieldError(key, text);
      notifications.show({ color: 'red', title: MSG.errorUpdatingProfileTitle, message: notice.message });
      return;
    }
    if (result.slugChanged) {
      notifications.show({
        color: 'green',
        title: MSG.businessUrlUpdatedTitle,
        message: `Your booking page is now at ${origin}/${result.slug}`,
      });
    } else {
      notifications.show({
        color: 'green',
        title: MSG.profileUpdatedTitle,
        message: 'Your business details are saved.',
      });
    }
    // The header, dashboard, public page and Location card (a new address is looked up) read these:
    // refresh them instead of reloading the page.
    await Promise.all([
      utils.settings.business.invalidate(),
      utils.settings.location.invalidate(),
      utils.auth.me.invalidate(),
      utils.businesses.mine.invalidate(),
    ]);
    form.resetDirty(values);
  }

  const slugError =
    form.errors.slug ?? (slug.state === 'taken' || slug.state === 'invalid' ? (slug.message ?? undefined) : undefined);

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="business-info-heading">
      <form onSubmit={form.onSubmit((v) => void onSubmit(v), onInvalid)} noValidate>
        <Stack gap="md">
          <CardHeading id="business-info-heading" title="Business Information">
            What customers see on your booking page.
          </CardHeading>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <TextInput label="Business name" withAsterisk {...form.getInputProps('businessName')} />
            <TextInput
              label="Contact name"
              withAsterisk
              autoComplete="name"
              description="The name on your account"
              inputWrapperOrder={['label', 'input', 'description', 'error']}
              {...form.getInputProps('contactName')}
            />
          </SimpleGrid>
          <TextInput
            label="Business URL"
            withAsterisk
            autoCapitalize="none"
            autoCorrect="off"
            spellCheck={false}
            value={form.values.slug}
            onChange={(e) => {
              form.setFieldValue('slug', normaliseSlugInput(e.currentTarget.value));
              form.clearFieldError('slug');
            }}
            error={slugError}
            description={`${BUSINESS_URL_MIN}-${BUSINESS_URL_MAX} characters: lowercase letters, numbers and hyphens.`}
            inputWrapperOrder={['label', 'input', 'description', 'error']}
            rightSection={slug.state === 'checking' ? <Loader size={16} aria-label="Checking" /> : undefined}
            {...urlPrefixProps(`${origin.replace(/^https?:\/\//, '')}/`)}
          />
          <Text
            size="xs"
            mt={-8}
            aria-live="polite"
            data-testid="slug-status"
            c={slug.state === 'valid' ? 'green.8' : 'dimmed'}
          >
            {slug.state === 'checking' || (slug.state === 'valid' && slug.message) ? slug.message : ''}
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <CategoryField {...form.getInputProps('category')} />
            <Select
              label="Time zone"
              data={zones}
              searchable
              allowDeselect={false}
              nothingFoundMessage="No matching time zone"
              maxDropdownHeight={280}
              description="Your slot dates and times are in this zone."
              inputWrapperOrder={['label', 'input', 'description', 'error']}
              {...form.getInputProps('timezone')}
            />
          </SimpleGrid>
          <DescriptionField {...form.getInputProps('description')} />
          <TextInput label="Address" autoComplete="street-address" {...form.getInputProps('address')} />
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <TextInput label="Phone number" type="tel" autoComplete="tel" {...form.getInputProps('phone')} />
            <TextInput label="Business email" type="email" autoComplete="email" {...form.getInputProps('email')} />
          </SimpleGrid>
          <Group justify="flex-end">
            <Button
              type="submit"
              loading={save.isPending}
              disabled={slug.state === 'checking'}
              w={{ base: '100%', sm: 'auto' }}
            >
              Save Changes
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
