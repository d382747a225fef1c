/**
 * Every email LastSlot sends, as React Email components, and the functions that address them.
 * A builder returns an `EmailMessage`: recipient, subject, template name and plain JSON props; the
 * outbox stores it and the dispatcher renders the HTML and text parts when it sends
 * (server/email/render.ts, docs/decisions/0051). Links are absolute, built from the app origin.
 * Dates and times are the slot's local values in the specs' display formats (shared/format.ts).
 */
import { Link, Section, Text } from '@react-email/components';
import type { ComponentProps, JSX } from 'react';
import { formatMiles } from '../../shared/discovery';
import { oneLine } from '../../shared/display-text';
import { formatDate, formatTimeRange } from '../../shared/format';
import type { OutboxAttachment } from '../db/schema/index';
import { DetailLines, EmailLayout, Paragraphs, styles, type NotificationFooter } from './layout';

// ---------------------------------------------------------------------------------------------
// Subscription emails (docs/decisions/0100): always sent, each once (a dedupe key)

function TrialEndingEmail(p: { name: string; endsOn: string; price: string; subscribeUrl: string }) {
  return (
    <EmailLayout
      preview={`Your free period ends on ${p.endsOn}.`}
      title="Your LastSlot free period ends in 3 days"
      action={{ label: 'Subscribe', url: p.subscribeUrl }}
    >
      <Paragraphs
        lines={[
          `Hi ${p.name},`,
          `Your free period ends on ${p.endsOn}. Subscribe for ${p.price} a month to keep adding slots.`,
          'Your public page, your open slots and every booking keep working either way.',
        ]}
      />
    </EmailLayout>
  );
}

function PaymentFailedEmail(p: { name: string; graceEndsOn: string; billingUrl: string }) {
  return (
    <EmailLayout
      preview="Please update your payment details."
      title="Your LastSlot payment did not go through"
      action={{ label: 'Manage Billing', url: p.billingUrl }}
    >
      <Paragraphs
        lines={[
          `Hi ${p.name},`,
          `We could not take your subscription payment. Please update your payment details in Manage Billing by ${p.graceEndsOn} to keep adding slots.`,
          'Your public page, your open slots and every booking keep working.',
        ]}
      />
    </EmailLayout>
  );
}

function SubscriptionEndedEmail(p: { name: string; subscribeUrl: string }) {
  return (
    <EmailLayout
      preview="You can subscribe again at any time."
      title="Your LastSlot subscription has ended"
      action={{ label: 'Subscribe again', url: p.subscribeUrl }}
    >
      <Paragraphs
        lines={[
          `Hi ${p.name},`,
          'Your subscription has ended, so you cannot add new slots and your business no longer shows in Discover.',
          'Your public page, your open slots and every booking keep working. You can subscribe again at any time.',
        ]}
      />
    </EmailLayout>
  );
}

// ---------------------------------------------------------------------------------------------
// Account emails (always sent; no notification kind)

function ConfirmationEmail(p: { name: string; link: string }) {
  return (
    <EmailLayout
      preview="Confirm your email address to finish setting up LastSlot."
      title={CONFIRMATION_SUBJECT}
      action={{ label: 'Confirm my email', url: p.link }}
    >
      <Paragraphs
        lines={[
          `Hi ${p.name},`,
          'Please confirm your email address to finish setting up your LastSlot account. The link is valid for 24 hours.',
        ]}
      />
    </EmailLayout>
  );
}

function AlreadyRegisteredEmail(p: { loginUrl: string; resetUrl: string }) {
  return (
    <EmailLayout
      preview="An account already exists for this address."
      title={ALREADY_REGISTERED_SUBJECT}
      action={{ label: 'Log in', url: p.loginUrl }}
    >
      <Paragraphs
        lines={[
          'Someone (perhaps you) tried to create a LastSlot account with this email address, but an account already exists.',
          `If it was you, log in at ${p.loginUrl} or reset your password at ${p.resetUrl}. If not, you can ignore this email.`,
        ]}
      />
    </EmailLayout>
  );
}

function PasswordResetEmail(p: { name: string; link: string }) {
  return (
    <EmailLayout
      preview="Choose a new password for LastSlot."
      title="Reset your LastSlot password"
      action={{ label: 'Choose a new password', url: p.link }}
    >
      <Paragraphs
        lines={[
          `Hi ${p.name},`,
          'Someone (hopefully you) asked to reset the password of your LastSlot account. The link is valid for 1 hour and works once.',
          'If you did not ask for this, you can ignore this email: your password stays as it is.',
        ]}
      />
    </EmailLayout>
  );
}

function PasswordChangedEmail(p: { name: string; resetUrl: string }) {
  return (
    <EmailLayout preview="Every device was signed out." title="Your LastSlot password was changed">
      <Paragraphs
        lines={[
          `Hi ${p.name},`,
          'The password of your LastSlot account was just changed, and every device signed in to it was signed out.',
          `If this was not you, reset your password now at ${p.resetUrl} and contact support.`,
        ]}
      />
    </EmailLayout>
  );
}

function EmailChangeLinkEmail(p: { name: string; link: string }) {
  return (
    <EmailLayout
      preview="Confirm your new email address."
      title="Confirm your new email for LastSlot"
      action={{ label: 'Confirm my new email', url: p.link }}
    >
      <Paragraphs
        lines={[
          `Hi ${p.name},`,
          'Please confirm that you want to use this address for your LastSlot account. The link is valid for 24 hours. Until you confirm, your old address stays in use.',
        ]}
      />
    </EmailLayout>
  );
}

function EmailChangeRequestedEmail(p: { name: string; newEmail: string; resetUrl: string }) {
  return (
    <EmailLayout preview={`A change to ${p.newEmail} was requested.`} title="Your LastSlot email change was requested">
      <Paragraphs
        lines={[
          `Hi ${p.name},`,
          `A change of your LastSlot account's email address to ${p.newEmail} was requested. It takes effect once the link sent to ${p.newEmail} is opened.`,
          `If this was not you, reset your password at ${p.resetUrl}: that also cancels the change.`,
        ]}
      />
    </EmailLayout>
  );
}

function EmailInUseNoticeEmail(p: { loginUrl: string }) {
  return (
    <EmailLayout
      preview="Nothing was changed."
      title="Someone tried to use your email for another LastSlot account"
      action={{ label: 'Log in', url: p.loginUrl }}
    >
      <Paragraphs
        lines={[
          'Someone (perhaps you) asked to move another LastSlot account to this email address, but this address already has an account, so nothing was changed.',
          `If it was you, log in with this address at ${p.loginUrl}. If not, you can ignore this email.`,
        ]}
      />
    </EmailLayout>
  );
}

function EmailChangedEmail(p: { name: string; newEmail: string }) {
  return (
    <EmailLayout preview="This address no longer signs in." title={`Your LastSlot email was changed to ${p.newEmail}`}>
      <Paragraphs
        lines={[
          `Hi ${p.name},`,
          `Your LastSlot account now uses ${p.newEmail}; this address no longer signs in to it.`,
          'If you did not make this change, contact support straight away.',
        ]}
      />
    </EmailLayout>
  );
}

/** What the contact form sends to support. */
export interface ContactMessageDetails {
  subject: string;
  message: string;
  name: string;
  email: string;
  role: 'business' | 'customer';
  /** Business accounts only. */
  businessName: string | null;
  /** Whether the sender's email address is confirmed (so support knows whether to trust it). */
  emailConfirmed: boolean;
}

function ContactMessageEmail(p: { details: ContactMessageDetails }) {
  const d = p.details;
  const facts: Array<[string, string]> = [
    ['Name', d.name],
    ['Email', `${d.email}${d.emailConfirmed ? '' : ' (not confirmed yet)'}`],
    ['Role', d.role === 'business' ? 'Business' : 'Customer'],
    ...(d.role === 'business' ? [['Business', d.businessName ?? '(no business profile)'] as [string, string]] : []),
    ['Subject', d.subject],
  ];
  const replyUrl = `mailto:${encodeURIComponent(d.email)}?subject=${encodeURIComponent(`Re: ${d.subject}`)}`;
  const lines = d.message.split('\n');
  return (
    <EmailLayout preview={d.subject} title="New message from the contact form">
      <DetailLines lines={facts} />
      <Text style={{ ...styles.text, whiteSpace: 'pre-wrap' }}>
        {lines.map((line, i) => (
          <span key={i}>
            {line}
            {i < lines.length - 1 ? <br /> : null}
          </span>
        ))}
      </Text>
      <Text style={styles.text}>
        Reply to: <Link href={replyUrl}>{d.email}</Link>
      </Text>
    </EmailLayout>
  );
}

// ---------------------------------------------------------------------------------------------
// Booking notifications (each has a kind the recipient may opt out of; docs/decisions/0050, 0054)

/** The appointment an email is about, in the business's local wall-clock time. */
export interface Appointment {
  businessName: string;
  description: string;
  /** 'YYYY-MM-DD' */
  date: string;
  /** 'HH:MM' */
  startTime: string;
  endTime: string;
  address: string | null;
  /**
   * The business's IANA time zone, named after the times when given: the emails written after a
   * time zone change (docs/decisions/0078) say which zone the times are in.
   */
  timeZone?: string;
}

/** The local date and times of an appointment, with the zone they are in when it is named. */
export type AppointmentTimes = Pick<Appointment, 'date' | 'startTime' | 'endTime' | 'timeZone'>;

/**
 * 'Saturday, 21st November 2026, 10:00 am - 10:30 am', followed by ' (America/New_York)' when the
 * zone is named.
 */
export function appointmentWhen(a: AppointmentTimes): string {
  const when = `${formatDate(a.date)}, ${formatTimeRange(a.startTime, a.endTime)}`;
  return a.timeZone ? `${when} (${a.timeZone})` : when;
}

function AppointmentDetails({
  appointment: a,
  customerName,
  previous,
}: {
  appointment: Appointment;
  customerName?: string;
  /** The times as they were written before (a time zone change): shown as 'Before'. */
  previous?: AppointmentTimes;
}) {
  return (
    <DetailLines
      lines={[
        ...(customerName ? [['Customer', customerName] as [string, string]] : []),
        ['Appointment', a.description],
        ['When', appointmentWhen(a)],
        ...(previous ? [['Before', appointmentWhen(previous)] as [string, string]] : []),
        ['Where', a.address ? `${a.businessName}, ${a.address}` : a.businessName],
      ]}
    />
  );
}

type NotificationProps = { appointment: Appointment; footer: NotificationFooter };

function BookingRequestedEmail(p: NotificationProps & { customerName: string; dashboardUrl: string }) {
  return (
    <EmailLayout
      preview={`${p.customerName} requested ${p.appointment.description}.`}
      title="New booking request"
      action={{ label: 'Open dashboard', url: p.dashboardUrl }}
      footer={p.footer}
    >
      <Paragraphs
        lines={[`${p.customerName} has requested ${p.appointment.description} at ${p.appointment.businessName}.`]}
      />
      <AppointmentDetails appointment={p.appointment} customerName={p.customerName} />
      <Paragraphs lines={['Confirm or decline the request from your dashboard.']} />
    </EmailLayout>
  );
}

function RequestWithdrawnEmail(
  p: NotificationProps & { customerName: string; dashboardUrl: string; reason?: 'overlap' },
) {
  return (
    <EmailLayout
      preview={`${p.customerName} withdrew their request.`}
      title="Booking request withdrawn"
      action={{ label: 'Open dashboard', url: p.dashboardUrl }}
      footer={p.footer}
    >
      <Paragraphs lines={[`${p.customerName} has withdrawn their request for ${p.appointment.description}.`]} />
      {p.reason === 'overlap' ? (
        <Paragraphs
          lines={[
            'Another business confirmed them for an appointment at the same time, so we withdrew this request for them.',
          ]}
        />
      ) : null}
      <AppointmentDetails appointment={p.appointment} customerName={p.customerName} />
      <Paragraphs lines={['The slot is available again on your booking page.']} />
    </EmailLayout>
  );
}

function CustomerDeletedEmail(p: NotificationProps & { customerName: string; dashboardUrl: string }) {
  return (
    <EmailLayout
      preview="A customer with a confirmed booking deleted their account."
      title="A customer deleted their account"
      action={{ label: 'Open dashboard', url: p.dashboardUrl }}
      footer={p.footer}
    >
      <Paragraphs
        lines={[`${p.customerName}, who has a confirmed booking with you, has deleted their LastSlot account.`]}
      />
      <AppointmentDetails appointment={p.appointment} customerName={p.customerName} />
      <Paragraphs
        lines={[
          "The appointment stays in your Booked tab as 'Deleted customer'. Their contact details have been removed, so we can no longer pass on their email address or phone number.",
        ]}
      />
    </EmailLayout>
  );
}

function RequestReceivedEmail(p: NotificationProps & { dashboardUrl: string }) {
  return (
    <EmailLayout
      preview={`Your request to ${p.appointment.businessName} has been sent.`}
      title="Booking request sent"
      action={{ label: 'View your appointments', url: p.dashboardUrl }}
      footer={p.footer}
    >
      <Paragraphs
        lines={[`Your request for ${p.appointment.description} at ${p.appointment.businessName} has been sent.`]}
      />
      <AppointmentDetails appointment={p.appointment} />
      <Paragraphs
        lines={[`${p.appointment.businessName} will confirm or decline it, and we will email you either way.`]}
      />
    </EmailLayout>
  );
}

function BookingConfirmedEmail(p: NotificationProps & { dashboardUrl: string; withdrawn?: Appointment[] }) {
  return (
    <EmailLayout
      preview={`${p.appointment.businessName} has confirmed your appointment.`}
      title={`Booking confirmed: ${p.appointment.businessName}`}
      action={{ label: 'View your appointments', url: p.dashboardUrl }}
      footer={p.footer}
    >
      <Paragraphs lines={[`${p.appointment.businessName} has confirmed your appointment.`]} />
      <AppointmentDetails appointment={p.appointment} />
      <Paragraphs
        lines={[
          'The attached calendar file (appointment.ics) adds it to your calendar. To change or cancel a confirmed appointment, please contact the business.',
        ]}
      />
      {p.withdrawn?.length ? (
        <>
          <Paragraphs
            lines={[
              p.withdrawn.length === 1
                ? 'You had also requested another appointment at the same time. We have withdrawn that request, so the slot goes back to others:'
                : `You had also requested ${p.withdrawn.length} other appointments at the same time. We have withdrawn those requests, so the slots go back to others:`,
            ]}
          />
          {p.withdrawn.map((a, i) => (
            <AppointmentDetails key={i} appointment={a} />
          ))}
        </>
      ) : null}
    </EmailLayout>
  );
}

function BookingDeclinedEmail(p: NotificationProps & { pageUrl: string }) {
  return (
    <EmailLayout
      preview={`${p.appointment.businessName} could not accept your request.`}
      title={`Booking request declined: ${p.appointment.businessName}`}
      action={{ label: 'See other times', url: p.pageUrl }}
      footer={p.footer}
    >
      <Paragraphs lines={[`Unfortunately ${p.appointment.businessName} could not accept your request.`]} />
      <AppointmentDetails appointment={p.appointment} />
      <Paragraphs lines={['You can request another time from their page.']} />
    </EmailLayout>
  );
}

function BookingCancelledEmail(
  p: NotificationProps & { reason: 'business_closed'; wasConfirmed: boolean; contact: string | null },
) {
  const what = p.wasConfirmed ? 'appointment' : 'request';
  return (
    <EmailLayout
      preview={`Your ${what} at ${p.appointment.businessName} is cancelled.`}
      title={`${p.wasConfirmed ? 'Appointment' : 'Booking request'} cancelled: ${p.appointment.businessName}`}
      footer={p.footer}
    >
      <Paragraphs
        lines={[
          p.wasConfirmed
            ? `${p.appointment.businessName} has closed its LastSlot account, so your confirmed appointment is cancelled.`
            : `${p.appointment.businessName} has closed its LastSlot account, so your booking request cannot be confirmed.`,
        ]}
      />
      <AppointmentDetails appointment={p.appointment} />
      <Paragraphs
        lines={[
          p.contact
            ? `If you have questions, please contact ${p.appointment.businessName} directly: ${p.contact}.`
            : `If you have questions, please contact ${p.appointment.businessName} directly.`,
        ]}
      />
    </EmailLayout>
  );
}

function BookingReminderEmail(p: NotificationProps & { dashboardUrl: string }) {
  return (
    <EmailLayout
      preview={`${p.appointment.description} at ${p.appointment.businessName} is coming up.`}
      title={`Reminder: your appointment at ${p.appointment.businessName}`}
      action={{ label: 'View your appointments', url: p.dashboardUrl }}
      footer={p.footer}
    >
      <Paragraphs lines={[`This is a reminder of your appointment at ${p.appointment.businessName}.`]} />
      <AppointmentDetails appointment={p.appointment} />
      <Paragraphs lines={['To change or cancel it, please contact the business.']} />
    </EmailLayout>
  );
}

function BookingTimeZoneChangedEmail(
  p: NotificationProps & { previous: AppointmentTimes; confirmed: boolean; dashboardUrl: string },
) {
  const business = p.appointment.businessName;
  const what = p.confirmed ? 'appointment' : 'request';
  return (
    <EmailLayout
      preview={`Your ${what} at ${business} keeps its time, now shown in ${p.appointment.timeZone}.`}
      title={`Same time, new time zone: ${business}`}
      action={{ label: 'View your appointments', url: p.dashboardUrl }}
      footer={p.footer}
    >
      <Paragraphs
        lines={[
          `${business} now shows its times in the ${p.appointment.timeZone} time zone. Your ${what} has not moved: it is at the same moment as before, written in that zone's local time.`,
        ]}
      />
      <AppointmentDetails appointment={p.appointment} previous={p.previous} />
      <Paragraphs
        lines={[
          p.confirmed
            ? 'The attached calendar file (appointment.ics) updates the event already in your calendar. To change or cancel the appointment, please contact the business.'
            : `${business} will confirm or decline it, and we will email you either way.`,
        ]}
      />
    </EmailLayout>
  );
}

// ---------------------------------------------------------------------------------------------
// Alerts of new slots (a saved Discover search, or a favourite business; docs/decisions/0086)

/** One new slot of an alert's email, in its business's local wall-clock time. */
export interface NewSlotLine {
  businessName: string;
  /** The business category's label ('Barber Shop'). */
  category: string;
  description: string;
  /** 'YYYY-MM-DD', 'HH:MM', 'HH:MM' local to the business. */
  date: string;
  startTime: string;
  endTime: string;
  /** The business's IANA zone, named after the times when it is not the customer's. */
  timeZone?: string;
  /** Miles from the alert's centre; null for a favourite's email. */
  distanceMiles: number | null;
  /** The business page, where the slot is requested. */
  url: string;
}

function NewSlotsEmail(p: {
  heading: string;
  intro: string;
  slots: NewSlotLine[];
  action: { label: string; url: string };
  footer: NotificationFooter;
}) {
  return (
    <EmailLayout preview={p.intro} title={p.heading} action={p.action} footer={p.footer}>
      <Paragraphs lines={[p.intro]} />
      {p.slots.map((s) => (
        <Section key={`${s.url} ${s.date} ${s.startTime}`} style={styles.details}>
          <Text style={{ ...styles.detailLine, fontWeight: 'bold' }}>
            <Link href={s.url}>{s.businessName}</Link>
          </Text>
          <Text style={styles.detailLine}>{`${s.category} · ${s.description}`}</Text>
          <Text style={styles.detailLine}>{appointmentWhen(s)}</Text>
          {s.distanceMiles !== null ? (
            <Text style={styles.detailLine}>{`${formatMiles(s.distanceMiles)} away`}</Text>
          ) : null}
          <Text style={styles.detailLine}>
            <Link href={s.url}>Request this slot</Link>
          </Text>
        </Section>
      ))}
      <Paragraphs lines={["Open slots go quickly: request one from the business's page."]} />
    </EmailLayout>
  );
}

// ---------------------------------------------------------------------------------------------
// The registry the dispatcher renders from, and the typed message builders

const COMPONENTS = {
  confirmation: ConfirmationEmail,
  alreadyRegistered: AlreadyRegisteredEmail,
  passwordReset: PasswordResetEmail,
  passwordChanged: PasswordChangedEmail,
  emailChangeLink: EmailChangeLinkEmail,
  emailChangeRequested: EmailChangeRequestedEmail,
  emailInUseNotice: EmailInUseNoticeEmail,
  emailChanged: EmailChangedEmail,
  contactMessage: ContactMessageEmail,
  bookingRequested: BookingRequestedEmail,
  requestWithdrawn: RequestWithdrawnEmail,
  customerDeleted: CustomerDeletedEmail,
  requestReceived: RequestReceivedEmail,
  bookingConfirmed: BookingConfirmedEmail,
  bookingDeclined: BookingDeclinedEmail,
  bookingCancelled: BookingCancelledEmail,
  bookingReminder: BookingReminderEmail,
  bookingTimeZoneChanged: BookingTimeZoneChangedEmail,
  newSlots: NewSlotsEmail,
  trialEnding: TrialEndingEmail,
  paymentFailed: PaymentFailedEmail,
  subscriptionEnded: SubscriptionEndedEmail,
} satisfies Record<string, (props: never) => JSX.Element>;

export type TemplateName = keyof typeof COMPONENTS;
export type TemplateProps<N extends TemplateName> = ComponentProps<(typeof COMPONENTS)[N]>;

/** A message as the outbox stores it: rendered only when sent. */
export interface EmailMessage {
  to: string;
  subject: string;
  template: TemplateName;
  /** Plain JSON (stored in the outbox's jsonb column). */
  props: Record<string, unknown>;
  attachments?: OutboxAttachment[];
}

/**
 * The message every builder below returns. `subject` is made one line (`oneLine`): it is built
 * from names and descriptions people typed, and a line break or control character in a header
 * makes a provider refuse the message, a bidirectional control reorders the subject's words.
 */
function message<N extends TemplateName>(
  to: string,
  subject: string,
  template: N,
  props: TemplateProps<N>,
  attachments?: OutboxAttachment[],
): EmailMessage {
  return {
    to,
    subject: oneLine(subject),
    template,
    props: props as Record<string, unknown>,
    ...(attachments ? { attachments } : {}),
  };
}

/** The React element of a stored message; throws for a template name this build does not know. */
export function emailElement(template: string, props: Record<string, unknown>): JSX.Element {
  if (!Object.hasOwn(COMPONENTS, template)) throw new Error(`unknown email template: ${template}`);
  const Component = COMPONENTS[template as TemplateName] as (p: Record<string, unknown>) => JSX.Element;
  return <Component {...props} />;
}

/** Subjects of the two emails a sign-up sends (the link, or the notice to a registered address). */
export const CONFIRMATION_SUBJECT = 'Confirm your email for LastSlot';
export const ALREADY_REGISTERED_SUBJECT = 'Someone tried to sign up with your email';

/** Email confirmation link to /auth-redirect?token=… (valid 24 hours). */
export function confirmationEmail(to: string, name: string, link: string): EmailMessage {
  return message(to, CONFIRMATION_SUBJECT, 'confirmation', { name, link });
}

/** Sent instead of a second account when someone signs up with a registered address. */
export function alreadyRegisteredEmail(to: string, loginUrl: string, resetUrl: string): EmailMessage {
  return message(to, ALREADY_REGISTERED_SUBJECT, 'alreadyRegistered', { loginUrl, resetUrl });
}

/** Password reset link to /reset-password?token=… (valid 1 hour; docs/decisions/0009). */
export function passwordResetEmail(to: string, name: string, link: string): EmailMessage {
  return message(to, 'Reset your LastSlot password', 'passwordReset', { name, link });
}

/** Notice after a password reset or change: every session was ended. */
export function passwordChangedEmail(to: string, name: string, resetUrl: string): EmailMessage {
  return message(to, 'Your LastSlot password was changed', 'passwordChanged', { name, resetUrl });
}

/** Three days before a free period without a subscription ends; `subscribeUrl`: the dashboard. */
export function trialEndingEmail(to: string, props: TemplateProps<'trialEnding'>): EmailMessage {
  return message(to, 'Your LastSlot free period ends in 3 days', 'trialEnding', props);
}

/** A subscription payment failed; `billingUrl`: Settings, where Manage Billing is. */
export function paymentFailedEmail(to: string, props: TemplateProps<'paymentFailed'>): EmailMessage {
  return message(to, 'Your LastSlot payment did not go through', 'paymentFailed', props);
}

/** The subscription ended (canceled, or not paid). */
export function subscriptionEndedEmail(to: string, props: TemplateProps<'subscriptionEnded'>): EmailMessage {
  return message(to, 'Your LastSlot subscription has ended', 'subscriptionEnded', props);
}

/** Email change link to the NEW address: /auth-redirect?token=… (valid 24 hours). */
export function emailChangeLinkEmail(to: string, name: string, link: string): EmailMessage {
  return message(to, 'Confirm your new email for LastSlot', 'emailChangeLink', { name, link });
}

/** Notice to the CURRENT address that a change to `newEmail` was requested. */
export function emailChangeRequestedEmail(to: string, name: string, newEmail: string, resetUrl: string): EmailMessage {
  return message(to, 'Your LastSlot email change was requested', 'emailChangeRequested', { name, newEmail, resetUrl });
}

/** Sent instead of a change link when the requested new address already has an account. */
export function emailInUseNoticeEmail(to: string, loginUrl: string): EmailMessage {
  return message(to, 'Someone tried to use your email for another LastSlot account', 'emailInUseNotice', { loginUrl });
}

/** Notice to the OLD address once an email change has been confirmed. */
export function emailChangedEmail(to: string, name: string, newEmail: string): EmailMessage {
  return message(to, `Your LastSlot email was changed to ${newEmail}`, 'emailChanged', { name, newEmail });
}

/** Subject prefix of contact-form emails to support. */
export const CONTACT_SUBJECT_PREFIX = 'LastSlot contact:';

/**
 * A contact-form message to the support address `to`: the sender's name, email, role and
 * (business only) business name, then the message with its line breaks kept, and a reply link.
 * Every user-supplied text is escaped by React.
 */
export function contactMessageEmail(to: string, details: ContactMessageDetails): EmailMessage {
  return message(to, `${CONTACT_SUBJECT_PREFIX} ${details.subject}`, 'contactMessage', { details });
}

/** To the business: a customer requested one of its slots (links to the dashboard). */
export function bookingRequestedEmail(to: string, p: TemplateProps<'bookingRequested'>): EmailMessage {
  return message(to, 'New booking request', 'bookingRequested', p);
}

/** To the business: the customer withdrew a pending request. */
export function requestWithdrawnEmail(to: string, p: TemplateProps<'requestWithdrawn'>): EmailMessage {
  return message(to, `Booking request withdrawn: ${p.appointment.description}`, 'requestWithdrawn', p);
}

/** To the business: a customer with a confirmed booking deleted their account. */
export function customerDeletedEmail(to: string, p: TemplateProps<'customerDeleted'>): EmailMessage {
  return message(to, 'A customer with a confirmed booking deleted their account', 'customerDeleted', p);
}

/** To the customer: their request was sent to the business. */
export function requestReceivedEmail(to: string, p: TemplateProps<'requestReceived'>): EmailMessage {
  return message(to, `Booking request sent: ${p.appointment.businessName}`, 'requestReceived', p);
}

/** The customer's calendar file of a confirmed appointment, as an email attachment. */
function appointmentIcs(ics: string): OutboxAttachment {
  return { filename: 'appointment.ics', contentType: 'text/calendar; charset=utf-8; method=PUBLISH', content: ics };
}

/** To the customer: the business confirmed (or approved) the request; `ics` is attached. */
export function bookingConfirmedEmail(to: string, p: TemplateProps<'bookingConfirmed'>, ics: string): EmailMessage {
  return message(to, `Booking confirmed: ${p.appointment.businessName}`, 'bookingConfirmed', p, [appointmentIcs(ics)]);
}

/**
 * To the customer: the business changed its time zone and their confirmed appointment or pending
 * request kept its instant, now written in the new zone (docs/decisions/0078). `ics`: the updated
 * calendar file (same UID, higher SEQUENCE), attached for a confirmed appointment only.
 */
export function bookingTimeZoneChangedEmail(
  to: string,
  p: TemplateProps<'bookingTimeZoneChanged'>,
  ics: string | null,
): EmailMessage {
  const subject = `Same time, new time zone: ${p.appointment.businessName}`;
  return message(to, subject, 'bookingTimeZoneChanged', p, ics ? [appointmentIcs(ics)] : undefined);
}

/** To the customer: the business declined (dialog) or rejected (inline) the request. */
export function bookingDeclinedEmail(to: string, p: TemplateProps<'bookingDeclined'>): EmailMessage {
  return message(to, `Booking request declined: ${p.appointment.businessName}`, 'bookingDeclined', p);
}

/** To the customer: a confirmed appointment (or open request) was cancelled because the business closed its account. */
export function bookingCancelledEmail(to: string, p: TemplateProps<'bookingCancelled'>): EmailMessage {
  const what = p.wasConfirmed ? 'Appointment' : 'Booking request';
  return message(to, `${what} cancelled: ${p.appointment.businessName}`, 'bookingCancelled', p);
}

/** To the customer, before a confirmed appointment. */
export function bookingReminderEmail(to: string, p: TemplateProps<'bookingReminder'>): EmailMessage {
  return message(to, `Reminder: ${p.appointment.description} at ${p.appointment.businessName}`, 'bookingReminder', p);
}

/**
 * To the customer: new slots that match one alert (`subject` e.g. '3 new slots near Leeds') or one
 * favourite business ('New slot at Studio Nine'), each with its business page.
 */
export function newSlotsEmail(to: string, subject: string, p: TemplateProps<'newSlots'>): EmailMessage {
  return message(to, subject, 'newSlots', p);
}
