import { plainTextSelectors, render, toPlainText } from '@react-email/render';
import { describe, expect, it } from 'vitest';
import { renderEmail } from './render';
import * as t from './templates';

const appointment = {
  businessName: 'Cut & "Colour" <Studio>',
  description: 'Trim, wash & blow-dry',
  date: '2026-12-01',
  startTime: '10:00',
  endTime: '10:45',
  address: '1 High St, <Town>',
};
const footer = {
  reason: 'You receive this because you requested an appointment on LastSlot.',
  unsubscribeUrl: 'https://lastslot.test/unsubscribe/abc?x=1&y=2',
  settingsUrl: 'https://lastslot.test/settings',
};
const dashboardUrl = 'https://lastslot.test/dashboard';
const link = 'https://lastslot.test/link?token=a&b=<c>';

/** One message of every template, with text that needs escaping. */
const messages: t.EmailMessage[] = [
  t.confirmationEmail('a@x.test', 'Ann & Bo', link),
  t.alreadyRegisteredEmail('a@x.test', link, link),
  t.passwordResetEmail('a@x.test', 'Ann', link),
  t.passwordChangedEmail('a@x.test', 'Ann', link),
  t.emailChangeLinkEmail('a@x.test', 'Ann', link),
  t.emailChangeRequestedEmail('a@x.test', 'Ann', 'new@x.test', link),
  t.emailInUseNoticeEmail('a@x.test', link),
  t.emailChangedEmail('a@x.test', 'Ann', 'new@x.test'),
  t.contactMessageEmail('support@x.test', {
    name: 'Ann <script>',
    email: 'a@x.test',
    subject: 'Hello & bye',
    message: 'Line one\nLine "two"',
    role: 'business',
    businessName: 'Cut & Colour',
    emailConfirmed: true,
  }),
  t.bookingRequestedEmail('b@x.test', { appointment, footer, customerName: "Cara O'Neil", dashboardUrl }),
  t.requestWithdrawnEmail('b@x.test', { appointment, footer, customerName: 'Cara', dashboardUrl }),
  t.customerDeletedEmail('b@x.test', { appointment, footer, customerName: 'Cara', dashboardUrl }),
  t.requestReceivedEmail('c@x.test', { appointment: { ...appointment, address: null }, footer, dashboardUrl }),
  t.bookingConfirmedEmail('c@x.test', { appointment, footer, dashboardUrl }, 'BEGIN:VCALENDAR\r\nEND:VCALENDAR'),
  t.bookingDeclinedEmail('c@x.test', { appointment, footer, pageUrl: 'https://lastslot.test/salon' }),
  t.bookingCancelledEmail('c@x.test', {
    appointment,
    footer,
    reason: 'business_closed',
    wasConfirmed: true,
    contact: 'hi@salon.test, 0123',
  }),
  t.bookingReminderEmail('c@x.test', { appointment, footer, dashboardUrl }),
  t.bookingTimeZoneChangedEmail(
    'c@x.test',
    {
      appointment: { ...appointment, startTime: '05:00', endTime: '05:45', timeZone: 'America/New_York' },
      previous: { ...appointment, timeZone: 'Europe/London' },
      confirmed: true,
      footer,
      dashboardUrl,
    },
    'BEGIN:VCALENDAR\r\nEND:VCALENDAR',
  ),
  t.newSlotsEmail('c@x.test', '2 new slots near Leeds', {
    heading: '2 new slots near Leeds',
    intro: 'Just added, matching your alert (Within 5 miles of Leeds · Starting today · All categories):',
    slots: [
      {
        businessName: appointment.businessName,
        category: 'Barber Shop',
        description: appointment.description,
        date: appointment.date,
        startTime: appointment.startTime,
        endTime: appointment.endTime,
        distanceMiles: 0.84,
        url: 'https://lastslot.test/cut-colour',
      },
      { ...appointment, category: 'Hair Salon', timeZone: 'Europe/Dublin', distanceMiles: null, url: link },
    ],
    action: { label: 'Manage your alerts', url: 'https://lastslot.test/settings#alerts' },
    footer,
  }),
  t.trialEndingEmail('b@x.test', {
    name: 'Sam',
    endsOn: 'Thursday, 31st December 2026',
    price: '£9.95',
    subscribeUrl: dashboardUrl,
  }),
  t.paymentFailedEmail('b@x.test', { name: 'Sam', graceEndsOn: 'Friday, 8th January 2027', billingUrl: link }),
  t.subscriptionEndedEmail('b@x.test', { name: 'Sam', subscribeUrl: dashboardUrl }),
];

describe('renderEmail', () => {
  it.each(messages.map((m) => [m.template, m] as const))(
    "%s: React Email's HTML (without React's streaming markers) and text",
    async (_name, m) => {
      const direct = await render(t.emailElement(m.template, m.props));
      const directText = toPlainText(direct, {
        wordwrap: false,
        selectors: [...plainTextSelectors, { selector: 'h1', options: { uppercase: false } }],
      });
      const rendered = await renderEmail(m.template, m.props);
      // React Email streams the email inside a Suspense boundary: React's markers (of the
      // boundary, of the hoisted html, head and body elements, and between adjacent text nodes)
      // are all that differs.
      expect(direct).toContain('<!--$-->');
      expect(rendered.html).toBe(direct.replace(/<!--(?:\$|\/\$|html|head|body| )-->/g, ''));
      expect(rendered.html).not.toMatch(/<!--(?!\[if mso\]>)/);
      expect(rendered.text).toBe(directText);
      expect(rendered.text.length).toBeGreaterThan(50);
    },
  );

  it('throws for an unknown template', async () => {
    await expect(renderEmail('noSuchTemplate', {})).rejects.toThrow('unknown email template');
  });
});

/** Every line break, separator, control and bidirectional character a stored value might hold. */
const hostileDescription = 'Fringe\r\ntrim\u2028wash\u2029\u0085blow\u000b\u000c\u0000dry\u001f\u007f\u001b\u009b';
const hostileBusinessName = ' Snip\n\u202EStudio\u2066 \t\u202A\u202B\u202C\u202D\u2067\u2068\u2069';
const person = 'Cara\r\nBcc: spy@example.test';

const hostileAppointment = {
  businessName: hostileBusinessName,
  description: hostileDescription,
  date: '2026-12-01',
  startTime: '10:00',
  endTime: '10:45',
  address: '1 High St\nTown',
};

type BuilderName = {
  [K in keyof typeof t]: K extends `${string}Email`
    ? (typeof t)[K] extends (...a: never[]) => t.EmailMessage
      ? K
      : never
    : never;
}[keyof typeof t];

/** One message of every builder, with the hostile values in every field that reaches its subject. */
const hostileMessages: Record<BuilderName, t.EmailMessage> = {
  confirmationEmail: t.confirmationEmail('a@x.test', person, link),
  alreadyRegisteredEmail: t.alreadyRegisteredEmail('a@x.test', link, link),
  passwordResetEmail: t.passwordResetEmail('a@x.test', person, link),
  passwordChangedEmail: t.passwordChangedEmail('a@x.test', person, link),
  emailChangeLinkEmail: t.emailChangeLinkEmail('a@x.test', person, link),
  emailChangeRequestedEmail: t.emailChangeRequestedEmail('a@x.test', person, 'new@x.test', link),
  emailInUseNoticeEmail: t.emailInUseNoticeEmail('a@x.test', link),
  emailChangedEmail: t.emailChangedEmail('a@x.test', person, 'new\r\n@x.test'),
  contactMessageEmail: t.contactMessageEmail('support@x.test', {
    name: person,
    email: 'a@x.test',
    subject: hostileDescription,
    message: 'Line one\nLine two',
    role: 'business',
    businessName: hostileBusinessName,
    emailConfirmed: true,
  }),
  bookingRequestedEmail: t.bookingRequestedEmail('b@x.test', {
    appointment: hostileAppointment,
    footer,
    customerName: person,
    dashboardUrl,
  }),
  requestWithdrawnEmail: t.requestWithdrawnEmail('b@x.test', {
    appointment: hostileAppointment,
    footer,
    customerName: person,
    dashboardUrl,
  }),
  customerDeletedEmail: t.customerDeletedEmail('b@x.test', {
    appointment: hostileAppointment,
    footer,
    customerName: person,
    dashboardUrl,
  }),
  requestReceivedEmail: t.requestReceivedEmail('c@x.test', { appointment: hostileAppointment, footer, dashboardUrl }),
  bookingConfirmedEmail: t.bookingConfirmedEmail(
    'c@x.test',
    { appointment: hostileAppointment, footer, dashboardUrl },
    'BEGIN:VCALENDAR',
  ),
  bookingDeclinedEmail: t.bookingDeclinedEmail('c@x.test', { appointment: hostileAppointment, footer, pageUrl: link }),
  bookingCancelledEmail: t.bookingCancelledEmail('c@x.test', {
    appointment: hostileAppointment,
    footer,
    reason: 'business_closed',
    wasConfirmed: false,
    contact: null,
  }),
  bookingReminderEmail: t.bookingReminderEmail('c@x.test', { appointment: hostileAppointment, footer, dashboardUrl }),
  bookingTimeZoneChangedEmail: t.bookingTimeZoneChangedEmail(
    'c@x.test',
    {
      appointment: { ...hostileAppointment, timeZone: 'America/New_York' },
      previous: { ...hostileAppointment, timeZone: 'Europe/London' },
      confirmed: true,
      footer,
      dashboardUrl,
    },
    null,
  ),
  newSlotsEmail: t.newSlotsEmail('c@x.test', `New slot at ${hostileBusinessName}`, {
    heading: 'New slot',
    intro: 'Just added:',
    slots: [
      {
        ...hostileAppointment,
        category: 'Barber Shop',
        distanceMiles: 1,
        url: link,
      },
    ],
    action: { label: 'See every slot', url: link },
    footer,
  }),
  trialEndingEmail: t.trialEndingEmail('b@x.test', { name: person, endsOn: 'x', price: '£9.95', subscribeUrl: link }),
  paymentFailedEmail: t.paymentFailedEmail('b@x.test', { name: person, graceEndsOn: 'x', billingUrl: link }),
  subscriptionEndedEmail: t.subscriptionEndedEmail('b@x.test', { name: person, subscribeUrl: link }),
};

describe('email subjects', () => {
  it('cover every message builder', () => {
    const builders = Object.keys(t).filter((k) => k.endsWith('Email') && typeof t[k as keyof typeof t] === 'function');
    expect(Object.keys(hostileMessages).sort()).toEqual(builders.sort());
  });

  it.each(Object.entries(hostileMessages))('%s: one line, whatever the data', (_name, message) => {
    const { subject } = message;
    expect(subject).not.toMatch(/[\r\n\u2028\u2029\p{Cc}]/u);
    expect(subject).not.toMatch(/[\u202A-\u202E\u2066-\u2069]/);
    expect(subject).not.toMatch(/\s{2}/);
    expect(subject).toBe(subject.trim());
    expect(subject.length).toBeGreaterThan(0);
  });

  it('keep the words, each run of breaks and controls made one space', () => {
    expect(hostileMessages.bookingReminderEmail.subject).toBe('Reminder: Fringe trim wash blow dry at Snip Studio');
    expect(hostileMessages.requestWithdrawnEmail.subject).toBe('Booking request withdrawn: Fringe trim wash blow dry');
    expect(hostileMessages.bookingCancelledEmail.subject).toBe('Booking request cancelled: Snip Studio');
    expect(hostileMessages.contactMessageEmail.subject).toBe('LastSlot contact: Fringe trim wash blow dry');
    expect(hostileMessages.emailChangedEmail.subject).toBe('Your LastSlot email was changed to new @x.test');
  });
});
