/**
 * Transactional email texts. Each returns subject, HTML and plain text; links are absolute,
 * built from the app origin.
 */
import { formatDate, formatTimeRange } from '../../shared/format';
import type { EmailMessage } from './outbox';

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function layout(title: string, paragraphs: string[], action?: { label: string; url: string }): string {
  const body = paragraphs.map((p) => `<p style="margin:0 0 16px">${escapeHtml(p)}</p>`).join('');
  const button = action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(action.url)}" style="background:#0c8599;color:#fff;padding:12px 20px;border-radius:6px;text-decoration:none;display:inline-block">${escapeHtml(action.label)}</a></p><p style="margin:0 0 16px;font-size:13px;color:#555">Or open this link: <a href="${escapeHtml(action.url)}">${escapeHtml(action.url)}</a></p>`
    : '';
  return `<!doctype html><html><body style="font-family:Arial,sans-serif;color:#222;max-width:560px;margin:0 auto;padding:24px"><h1 style="font-size:20px;margin:0 0 16px">${escapeHtml(title)}</h1>${body}${button}<p style="margin:32px 0 0;font-size:12px;color:#888">LastSlot — last-minute appointments</p></body></html>`;
}

function plain(paragraphs: string[], action?: { label: string; url: string }): string {
  return [...paragraphs, ...(action ? [`${action.label}: ${action.url}`] : []), '', 'LastSlot'].join('\n\n');
}

function message(
  to: string,
  subject: string,
  paragraphs: string[],
  action?: { label: string; url: string },
): EmailMessage {
  return { to, subject, html: layout(subject, paragraphs, action), text: plain(paragraphs, action) };
}

/** Subjects of the two emails a sign-up sends (the link, or the notice to a registered address). */
export const CONFIRMATION_SUBJECT = 'Confirm your email for LastSlot';
export const ALREADY_REGISTERED_SUBJECT = 'Someone tried to sign up with your email';

/** Email confirmation link to /auth-redirect?token=… (valid 24 hours). */
export function confirmationEmail(to: string, name: string, link: string): EmailMessage {
  return message(
    to,
    CONFIRMATION_SUBJECT,
    [
      `Hi ${name},`,
      'Please confirm your email address to finish setting up your LastSlot account. The link is valid for 24 hours.',
    ],
    { label: 'Confirm my email', url: link },
  );
}

/** Sent instead of a second account when someone signs up with a registered address. */
export function alreadyRegisteredEmail(to: string, loginUrl: string, resetUrl: string): EmailMessage {
  return message(
    to,
    ALREADY_REGISTERED_SUBJECT,
    [
      'Someone (perhaps you) tried to create a LastSlot account with this email address, but an account already exists.',
      `If it was you, log in at ${loginUrl} or reset your password at ${resetUrl}. If not, you can ignore this email.`,
    ],
    { label: 'Log in', url: loginUrl },
  );
}

/** Password reset link to /reset-password?token=… (valid 1 hour; docs/decisions/0009). */
export function passwordResetEmail(to: string, name: string, link: string): EmailMessage {
  return message(
    to,
    'Reset your LastSlot password',
    [
      `Hi ${name},`,
      'Someone (hopefully you) asked to reset the password of your LastSlot account. The link is valid for 1 hour and works once.',
      'If you did not ask for this, you can ignore this email: your password stays as it is.',
    ],
    { label: 'Choose a new password', url: link },
  );
}

/** Notice after a password reset or change: every session was ended. */
export function passwordChangedEmail(to: string, name: string, resetUrl: string): EmailMessage {
  return message(to, 'Your LastSlot password was changed', [
    `Hi ${name},`,
    'The password of your LastSlot account was just changed, and every device signed in to it was signed out.',
    `If this was not you, reset your password now at ${resetUrl} and contact support.`,
  ]);
}

/** Email change link to the NEW address: /auth-redirect?token=… (valid 24 hours). */
export function emailChangeLinkEmail(to: string, name: string, link: string): EmailMessage {
  return message(
    to,
    'Confirm your new email for LastSlot',
    [
      `Hi ${name},`,
      'Please confirm that you want to use this address for your LastSlot account. The link is valid for 24 hours. Until you confirm, your old address stays in use.',
    ],
    { label: 'Confirm my new email', url: link },
  );
}

/** Notice to the CURRENT address that a change to `newEmail` was requested. */
export function emailChangeRequestedEmail(to: string, name: string, newEmail: string, resetUrl: string): EmailMessage {
  return message(to, 'Your LastSlot email change was requested', [
    `Hi ${name},`,
    `A change of your LastSlot account's email address to ${newEmail} was requested. It takes effect once the link sent to ${newEmail} is opened.`,
    `If this was not you, reset your password at ${resetUrl}: that also cancels the change.`,
  ]);
}

/** Sent instead of a change link when the requested new address already has an account. */
export function emailInUseNoticeEmail(to: string, loginUrl: string): EmailMessage {
  return message(
    to,
    'Someone tried to use your email for another LastSlot account',
    [
      'Someone (perhaps you) asked to move another LastSlot account to this email address, but this address already has an account, so nothing was changed.',
      `If it was you, log in with this address at ${loginUrl}. If not, you can ignore this email.`,
    ],
    { label: 'Log in', url: loginUrl },
  );
}

/** Notice to the OLD address once an email change has been confirmed. */
export function emailChangedEmail(to: string, name: string, newEmail: string): EmailMessage {
  return message(to, `Your LastSlot email was changed to ${newEmail}`, [
    `Hi ${name},`,
    `Your LastSlot account now uses ${newEmail}; this address no longer signs in to it.`,
    'If you did not make this change, contact support straight away.',
  ]);
}

interface SlotSummary {
  date: string;
  startTime: string;
  endTime: string;
  description: string;
}
function when(slot: SlotSummary): string {
  return `${slot.description} on ${formatDate(slot.date)}, ${formatTimeRange(slot.startTime, slot.endTime)}`;
}

/** To the business: a customer requested one of its slots. */
export function bookingRequestedEmail(
  to: string,
  customerName: string,
  slot: SlotSummary,
  dashboardUrl: string,
): EmailMessage {
  return message(
    to,
    'New booking request',
    [`${customerName} has requested ${when(slot)}.`, 'Confirm or decline the request from your dashboard.'],
    { label: 'Open dashboard', url: dashboardUrl },
  );
}

/** To the customer: the business confirmed the request. */
export function bookingConfirmedEmail(
  to: string,
  businessName: string,
  slot: SlotSummary,
  dashboardUrl: string,
): EmailMessage {
  return message(
    to,
    `Booking confirmed: ${businessName}`,
    [`${businessName} has confirmed your appointment: ${when(slot)}.`],
    { label: 'View your appointments', url: dashboardUrl },
  );
}

/** To the customer: the business declined the request. */
export function bookingDeclinedEmail(
  to: string,
  businessName: string,
  slot: SlotSummary,
  pageUrl: string,
): EmailMessage {
  return message(
    to,
    `Booking request declined: ${businessName}`,
    [
      `Unfortunately ${businessName} could not accept your request for ${when(slot)}.`,
      'You can request another time from their page.',
    ],
    { label: 'See other times', url: pageUrl },
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

/** Subject prefix of contact-form emails to support. */
export const CONTACT_SUBJECT_PREFIX = 'LastSlot contact:';

/**
 * A contact-form message to the support address `to`:
 * subject, sender's name, email, role and (business only) business name, then the message with its
 * line breaks kept, and a reply link to the sender. Every user-supplied text is escaped.
 */
export function contactMessageEmail(to: string, details: ContactMessageDetails): EmailMessage {
  const role = details.role === 'business' ? 'Business' : 'Customer';
  const facts: Array<[string, string]> = [
    ['Name', details.name],
    ['Email', `${details.email}${details.emailConfirmed ? '' : ' (not confirmed yet)'}`],
    ['Role', role],
    ...(details.role === 'business'
      ? [['Business', details.businessName ?? '(no business profile)'] as [string, string]]
      : []),
    ['Subject', details.subject],
  ];
  const subject = `${CONTACT_SUBJECT_PREFIX} ${details.subject}`;
  const replyUrl = `mailto:${encodeURIComponent(details.email)}?subject=${encodeURIComponent(`Re: ${details.subject}`)}`;
  const rows = facts
    .map(
      ([label, value]) =>
        `<tr><td style="padding:2px 12px 2px 0;color:#555;vertical-align:top">${label}</td><td style="padding:2px 0">${escapeHtml(value)}</td></tr>`,
    )
    .join('');
  const html = `<!doctype html><html><body style="font-family:Arial,sans-serif;color:#222;max-width:560px;margin:0 auto;padding:24px"><h1 style="font-size:20px;margin:0 0 16px">New message from the contact form</h1><table style="border-collapse:collapse;margin:0 0 16px;font-size:14px">${rows}</table><div style="white-space:pre-wrap;border-left:3px solid #0c8599;padding:8px 12px;margin:0 0 24px;background:#f8f9fa">${escapeHtml(details.message)}</div><p style="margin:0 0 16px"><a href="${escapeHtml(replyUrl)}">Reply to ${escapeHtml(details.name)}</a></p><p style="margin:32px 0 0;font-size:12px;color:#888">LastSlot — last-minute appointments</p></body></html>`;
  const text = [
    'New message from the contact form',
    facts.map(([label, value]) => `${label}: ${value}`).join('\n'),
    details.message,
    `Reply to: ${details.email}`,
  ].join('\n\n');
  return { to, subject, html, text };
}
