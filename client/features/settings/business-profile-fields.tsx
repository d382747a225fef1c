/**
 * The business profile's fields shared by business sign-up (/complete-business-profile) and the
 * Business Information card, and their 'Validation Error' toast.
 */
import '@mantine/core/styles/Popover.css';
import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/Combobox.css';
import { Select, Textarea, type SelectProps, type TextareaProps } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { CATEGORY_GROUPS } from '../../../shared/categories';
import { MSG } from '../../../shared/messages';
import { DESCRIPTION_MAX } from '../../../shared/schemas/limits';

const CATEGORY_DATA = CATEGORY_GROUPS.map((g) => ({ group: g.group, items: [...g.items] }));

/** The searchable, grouped business category picker. */
export function CategoryField(props: Omit<SelectProps, 'data'>) {
  return (
    <Select
      label="Category"
      data={CATEGORY_DATA}
      searchable
      allowDeselect={false}
      nothingFoundMessage="No matching category"
      withAsterisk
      maxDropdownHeight={280}
      {...props}
    />
  );
}

/** The business description with its 'n/300 characters' counter, red past the limit. */
export function DescriptionField(props: TextareaProps) {
  const length = typeof props.value === 'string' ? props.value.length : 0;
  return (
    <Textarea
      label="Description"
      withAsterisk
      autosize
      minRows={3}
      maxRows={6}
      {...props}
      description={`${length}/${DESCRIPTION_MAX} characters`}
      inputWrapperOrder={['label', 'input', 'description', 'error']}
      descriptionProps={{ c: length > DESCRIPTION_MAX ? 'red' : 'dimmed', ta: 'right' }}
    />
  );
}

/** 'Validation Error' toast with the first of a form's messages. */
export function notifyValidation(errors: Record<string, unknown>) {
  const first = Object.values(errors).find((e) => typeof e === 'string');
  notifications.show({ color: 'red', title: MSG.validationErrorTitle, message: String(first ?? MSG.fixValidation) });
}
