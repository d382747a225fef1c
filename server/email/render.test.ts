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
