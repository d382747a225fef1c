/**
 * The Terms & Conditions and the Privacy Policy shown in the footer dialogs (ADR 0021). Written for
 * what LastSlot actually does: businesses publish slots, customers request them, the business
 * confirms or declines; businesses pay their subscription through Stripe, the payment processor, once
 * billing has started (nothing during the launch period; docs/decisions/0100); email is delivered by
 * Resend. Plain UK English. Who the operator is and how to
 * reach them come from ./operator.ts (docs/decisions/0021-legal-texts-operator-and-contact.md).
 */
import { OPERATOR, operatorSentence, type OperatorDetails } from './operator';

export interface LegalSection {
  title: string;
  paragraphs: string[];
}

export const LEGAL_UPDATED = '26 November 2026';

/** The Terms & Conditions: 16 numbered sections. */
export function termsSections(op: OperatorDetails = OPERATOR): LegalSection[] {
  return [
    {
      title: '1. Acceptance of these terms',
      paragraphs: [
        operatorSentence(op),
        'These terms apply whenever you use LastSlot, whether or not you have an account. By creating an account you agree to them. If you use LastSlot for a business, you confirm that you are allowed to accept them on its behalf. If you do not agree, please do not use the service.',
      ],
    },
    {
      title: '2. Description of the service',
      paragraphs: [
        'LastSlot lets appointment businesses (for example salons, barbers, clinics, therapists and personal trainers) publish short-notice and cancelled appointment slots on their own booking page, and lets customers request those slots. The business then confirms or declines each request, and both sides receive an email.',
        'LastSlot sits beside a business’s own diary or booking system; it does not replace it. LastSlot is not a party to any appointment: the treatment or service is provided by the business, and the agreement for it is between the business and the customer.',
      ],
    },
    {
      title: '3. Accounts',
      paragraphs: [
        'You must be at least 16 years old to create an account. You must give accurate details, confirm your email address, keep your password secret and keep your details up to date.',
        'You are responsible for what is done with your account. If you think someone else has used it, change your password straight away (this signs out every other device) and tell us at ' +
          `${op.supportEmail}.`,
      ],
    },
    {
      title: '4. Obligations of businesses',
      paragraphs: [
        'A business must only publish slots it can honour, describe each slot and any discount truthfully, answer requests promptly, and keep the details on its booking page accurate.',
        'A business is responsible for holding any licences, qualifications, consents and insurance its services need, for its own cancellation policy, and for copying bookings it confirms through LastSlot into its main diary or booking system.',
        'A business receives its customers’ names and contact details to handle their requests. It must use them only for that purpose and look after them as UK data protection law requires.',
      ],
    },
    {
      title: '5. Obligations of customers',
      paragraphs: [
        'A customer must give accurate contact details, request only slots they intend to attend, and follow the business’s own terms, including its cancellation policy.',
        'Any medical or health information relevant to a treatment should be discussed with the business directly, not written in a booking note.',
      ],
    },
    {
      title: '6. Booking and cancellation',
      paragraphs: [
        'A request is not yet a booking: every booking is subject to approval by the business, which may confirm or decline it. You will receive an email either way.',
        'A customer may cancel a request while it is still pending, from their dashboard. Once a booking is confirmed, the cancellation policy is set by each business: contact the business to change or cancel a confirmed appointment. LastSlot cannot confirm, move or cancel appointments on a business’s behalf.',
      ],
    },
    {
      title: '7. Payment and fees',
      paragraphs: [
        'LastSlot is free for customers. We do not take payment for appointments: any price, deposit or discount is agreed and paid between the customer and the business.',
        'During the launch period businesses use LastSlot free of charge, and no card is needed. Once billing starts, adding slots needs a subscription: businesses that joined during the launch pay 9.95 GBP a month for life, others the list price of 19.95 GBP a month. Businesses that joined during the launch get a free period to subscribe, and a business that joins later starts with a free trial; no card is needed during either. We announce the start of billing in advance.',
        'A subscription renews each month until you cancel it in Manage Billing; it then ends at the end of the period you paid for, and nothing more is charged. If a payment fails you can keep adding slots for a short grace period while you update your payment details. Without an active subscription your public page, your open slots and your bookings keep working, but you cannot add slots and your business does not show in Discover.',
        'Subscription payments are processed by Stripe, our payment processor, under its own terms; Stripe sends the receipts and invoices. We never see or store your full card details.',
      ],
    },
    {
      title: '8. Prohibited uses',
      paragraphs: [
        'You must not use LastSlot for anything unlawful or harmful; publish false, misleading or offensive content; make requests you do not intend to keep; harass other users; send spam; collect other users’ personal data; impersonate anyone; try to get around the service’s security or limits; or access it by automated means such as scrapers.',
      ],
    },
    {
      title: '9. Intellectual property',
      paragraphs: [
        'The LastSlot name, logo, software and design belong to us or our licensors. You may use the service only as these terms allow.',
        'You keep the rights in what you add, such as a business description. You give us a non-exclusive, royalty-free licence to host, show and copy it as needed to run the service, for as long as it is on LastSlot.',
      ],
    },
    {
      title: '10. Privacy',
      paragraphs: [
        'We handle personal data as described in our Privacy Policy, which you can open from the footer of every page. When a customer requests a slot, their name, email address and any note they add are shared with that business so it can answer the request.',
      ],
    },
    {
      title: '11. Limitation of liability',
      paragraphs: [
        'We are not responsible for the services a business provides, for a business declining or cancelling an appointment, or for a customer not attending.',
        'We are not liable for losses that were not foreseeable, for business losses such as lost profit or lost opportunity, or for problems caused by events outside our reasonable control. For businesses, our total liability in any 12 months is limited to the greater of the fees paid to us in that period and 100 GBP.',
        'Nothing in these terms limits liability for death or personal injury caused by negligence, for fraud, or any other liability that cannot be limited by law, and nothing affects your statutory rights as a consumer.',
      ],
    },
    {
      title: '12. Disclaimers',
      paragraphs: [
        'We work to keep LastSlot available, secure and accurate, but we cannot promise that it will always be uninterrupted or error-free, or that a slot will still be available when you request it. Slot details, prices and discounts are provided by the businesses, not checked by us.',
      ],
    },
    {
      title: '13. Termination',
      paragraphs: [
        'You can stop using LastSlot at any time and delete your account in Settings. We may suspend or close an account that breaks these terms or puts other users at risk, and will tell you why unless the law or safety prevents it.',
        'When an account is deleted, its pending requests end, and bookings that involved another user keep the details that user needs, as the Privacy Policy explains.',
      ],
    },
    {
      title: '14. Changes to these terms',
      paragraphs: [
        'We may update these terms as the service changes or the law requires. We will tell account holders about important changes by email or in the service before they take effect. The date at the top shows when they last changed. If you do not agree with a change, you can close your account before it applies.',
      ],
    },
    {
      title: '15. Governing law',
      paragraphs: [
        'These terms are governed by the law of England and Wales, and the courts of England and Wales have jurisdiction. If you are a consumer living in Scotland or Northern Ireland, you may also bring proceedings there, and you keep the protection of the mandatory law where you live.',
      ],
    },
    {
      title: '16. Contact',
      paragraphs: [
        `Questions about these terms or about the service: email ${op.supportEmail}. Signed-in users can also use the Get in Touch page. We aim to reply within two working days.`,
      ],
    },
  ];
}

/** The Privacy Policy, with the minimum age of 16. */
export function privacySections(op: OperatorDetails = OPERATOR): LegalSection[] {
  return [
    {
      title: 'Who we are',
      paragraphs: [
        operatorSentence(op),
        'We are the controller of the personal data described in this policy. This policy explains what we collect, why, who we share it with and the choices you have. It follows UK data protection law (the UK GDPR and the Data Protection Act 2018).',
      ],
    },
    {
      title: 'Data we collect',
      paragraphs: [
        'Account data: your name, email address, account type (business or customer), a one-way hash of your password (never the password itself) and when you confirmed your email address. A customer may also add a phone number.',
        'Business data: business name, type, description, address, phone number, business email, booking page address, time zone, opening hours and the slots you publish.',
        'Booking data: the slots a customer requests, any note added to a request, and each booking’s status and history.',
        'Favourites: the businesses a customer bookmarks.',
        'Locations: where a business is (a point on the map set from its address, from the owner’s device or by moving the pin, with how precise it is), which Discover shows publicly while the business keeps “Show my slots in Discover” on. When a customer searches Discover by their position, the browser rounds it to about 100 metres before sending it; we use it for that search only and never store or log it. A typed town or postcode is kept on your device so the next search can start from it.',
        'Alerts: the searches a customer saves to hear about new slots (the place they typed or the rounded centre they chose, the distance, the time window and the category), and the favourite businesses they asked to hear from.',
        'Messages: what you send us through the Get in Touch page, with your name, email and account type.',
        'Technical data: a session cookie that keeps you signed in, your IP address and the time of requests, kept in server logs and used to limit repeated failed logins and other abuse.',
      ],
    },
    {
      title: 'How we use it',
      paragraphs: [
        'To run your account and the service: booking pages, requests, confirmations and declines, and the emails about them (confirmation links, password resets, booking updates).',
        'To show customers open slots near them in Discover, and to email a customer when new slots match an alert they saved or a favourite business publishes a slot they asked to hear about.',
        'To keep LastSlot secure: protecting accounts, limiting repeated failed logins and requests, and investigating misuse.',
        'To answer your messages and requests.',
        'We do not sell personal data, and we do not use it for advertising. We do not make decisions about you by automated means alone.',
      ],
    },
    {
      title: 'Legal basis',
      paragraphs: [
        'Performance of a contract: to provide the service you signed up for, including sharing a customer’s request with the business they chose.',
        'Legitimate interests: to keep the service secure and to prevent fraud and abuse, in ways you would reasonably expect.',
        'Legal obligation: where the law requires us to keep or share information.',
        'Consent: for optional analytics or marketing cookies, if we ever use them. You can withdraw consent at any time from Cookie settings in the footer.',
      ],
    },
    {
      title: 'Sharing',
      paragraphs: [
        'With businesses: when you request a slot, the business sees your name, email address and any note you add. A business you book with keeps that information for its own records and is responsible for it.',
        'With our service providers (processors), who act only on our instructions: our hosting and database provider; Resend, which delivers our emails; and Stripe, our payment processor, which takes business subscription payments (once billing has started), runs the billing portal and holds the payment details; we keep only the Stripe customer and subscription ids and the status and dates of the subscription.',
        'Maps and places: when a business asks us to find its address on the map, we may send that address (never a name or email) to a place look-up service. When you open a map, your browser fetches the map images from a map tile server, which sees your IP address, as any website you visit does.',
        'We may also share data when the law requires it, or to protect the rights and safety of our users.',
      ],
    },
    {
      title: 'Where your data is kept',
      paragraphs: [
        'The LastSlot servers and database are hosted in the United Kingdom or the European Economic Area. Some providers, such as Resend and Stripe, may process data in the United States; where data leaves the UK, we rely on the safeguards UK law provides for such transfers, such as adequacy regulations or the UK International Data Transfer Agreement or Addendum.',
      ],
    },
    {
      title: 'Security',
      paragraphs: [
        'Passwords are stored only as strong one-way hashes (Argon2). Connections are encrypted in transit. Sign-in sessions are random tokens kept in a secure, HttpOnly cookie, and all of them end when you change or reset your password. Each account can only reach its own data and the bookings it is part of. No system is perfectly secure: if you think your account has been misused, tell us straight away.',
      ],
    },
    {
      title: 'Retention',
      paragraphs: [
        'We keep your data for as long as you have an account. When you delete your account in Settings, we delete straight away your account, profile, sign-in sessions, favourites and, for a business, its booking page and slots.',
        'Bookings that involved another user stay so that user keeps their record: a customer keeps the name and address of the business they booked with, and a business keeps the appointments a customer booked, shown as ‘Deleted customer’. When a customer deletes their account, we clear their name, email address and phone number from those appointments and remove the notes they wrote with their requests. Messages you sent us, copies of the emails we sent and server logs are kept only as long as we need them to answer you and to keep the service secure.',
      ],
    },
    {
      title: 'Your rights',
      paragraphs: [
        'You have the right to access your data, to correct it, to have it deleted, to restrict or object to how we use it, to data portability, and to withdraw consent at any time.',
        `You can download your data and delete your account yourself in Settings. For anything else, email ${op.privacyEmail}. We answer within one month.`,
        'If you are unhappy with how we handle your data, please tell us first. You also have the right to complain to the Information Commissioner’s Office (ico.org.uk, 0303 123 1113).',
      ],
    },
    {
      title: 'Cookies',
      paragraphs: [
        'Necessary: the lastslot_session cookie keeps you signed in, and your cookie choice is remembered in the cookiePreferences cookie (for one year) and in your browser’s storage. These are always on, because the service cannot work without them.',
        'Analytics and marketing: off unless you turn them on. LastSlot loads no analytics or marketing tools today; if we add any, they will only run after you have agreed. You can change your choice at any time from Cookie settings in the footer.',
      ],
    },
    {
      title: 'Minimum age',
      paragraphs: [
        'LastSlot is not intended for children. You must be at least 16 years old to create an account, and we do not knowingly collect data from anyone under 16. If you believe a child under 16 has given us personal data, contact us and we will delete it.',
      ],
    },
    {
      title: 'Data protection officer',
      paragraphs: [
        `Our data protection officer handles questions about this policy and requests about your rights. Email ${op.privacyEmail}${op.address ? `, or write to us at ${op.address}` : ''}.`,
      ],
    },
    {
      title: 'Changes to this policy',
      paragraphs: [
        'We will update this policy when what we do with personal data changes. The date at the top shows the latest version, and we will tell account holders by email about important changes.',
      ],
    },
  ];
}

/** The texts for this deployment's operator (./operator.ts). */
export const TERMS_SECTIONS: LegalSection[] = termsSections();
export const PRIVACY_SECTIONS: LegalSection[] = privacySections();
