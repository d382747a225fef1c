/**
 * The Terms & Conditions and the Privacy Policy shown in the footer dialogs (accounts spec §1).
 * Written for what LastSlot actually does: businesses publish slots, customers request them, the
 * business confirms or declines. Plain UK English; no claims about features that do not exist.
 */
export interface LegalSection {
  title: string;
  paragraphs: string[];
}

export const LEGAL_UPDATED = '21 November 2026';

/** The 16 sections the spec lists, in its order. */
export const TERMS_SECTIONS: LegalSection[] = [
  {
    title: '1. Acceptance of these terms',
    paragraphs: [
      'By creating an account or using LastSlot you agree to these terms. If you use LastSlot for a business, you confirm that you may accept them on its behalf. If you do not agree, please do not use the service.',
    ],
  },
  {
    title: '2. What LastSlot does',
    paragraphs: [
      'LastSlot lets appointment businesses publish short-notice and cancelled appointment slots on a booking page, and lets customers request those slots. LastSlot is not a party to the appointment: the service is provided by the business, and the agreement for it is between the business and the customer.',
    ],
  },
  {
    title: '3. Your account',
    paragraphs: [
      'You must give accurate details, confirm your email address and keep your password secret. You are responsible for what happens under your account. Tell us at once if you think someone else has used it. You must be at least 16 years old to have an account.',
    ],
  },
  {
    title: '4. Obligations of businesses',
    paragraphs: [
      'Businesses must only publish slots they can honour, describe them and any discount truthfully, answer requests promptly, and hold any licences, qualifications and insurance their services require. Businesses are responsible for keeping their main calendar or booking system up to date with bookings confirmed through LastSlot.',
    ],
  },
  {
    title: '5. Obligations of customers',
    paragraphs: [
      "Customers must give accurate contact details, request only slots they intend to attend, and follow the business's own terms, including its cancellation policy. Any health information relevant to a treatment should be discussed with the business directly.",
    ],
  },
  {
    title: '6. Booking and cancellation',
    paragraphs: [
      'A request is not a booking: every booking is subject to approval by the business, which may confirm or decline it. You receive an email either way. A customer may withdraw a request while it is pending. Once confirmed, the cancellation policy is set by each business; contact the business to change or cancel a confirmed appointment.',
    ],
  },
  {
    title: '7. Payment and fees',
    paragraphs: [
      'LastSlot is free for customers. Businesses use LastSlot free of charge during the launch period; we will tell you in advance, and ask for your agreement, before any subscription fee applies. Fees may apply to businesses after the launch period, and any payment is handled by third-party payment providers under their own terms. Payment for an appointment itself is arranged between the customer and the business.',
    ],
  },
  {
    title: '8. Prohibited uses',
    paragraphs: [
      'You must not use LastSlot for anything unlawful, to publish false or misleading slots, to harass anyone, to send spam, to collect other users’ data, to interfere with or probe the service’s security, or to access it by automated means other than those we provide.',
    ],
  },
  {
    title: '9. Intellectual property',
    paragraphs: [
      'LastSlot, its software and its design belong to us. You keep the rights to the content you add, such as business descriptions, and give us a licence to show it on the service for as long as it is there.',
    ],
  },
  {
    title: '10. Privacy',
    paragraphs: [
      'We handle personal data as described in our Privacy Policy. When a customer requests a slot, their name and email address are shared with that business so it can answer the request.',
    ],
  },
  {
    title: '11. Liability',
    paragraphs: [
      'We are not responsible for the services a business provides, for a business declining or cancelling an appointment, or for a customer not attending. To the extent the law allows, our total liability to you is limited to the fees you paid us in the 12 months before the claim. Nothing in these terms limits liability for death or personal injury caused by negligence, for fraud, or any other liability that cannot be limited by law.',
    ],
  },
  {
    title: '12. Disclaimers',
    paragraphs: [
      'We work to keep LastSlot available and accurate, but we provide it as it is and cannot promise that it will be uninterrupted or error-free, or that a particular slot will be available when you request it.',
    ],
  },
  {
    title: '13. Termination',
    paragraphs: [
      'You can delete your account at any time in Settings. We may suspend or close an account that breaks these terms, telling you why unless the law or safety prevents it. When an account is deleted, bookings that involved another user keep the details that user needs, as the Privacy Policy explains.',
    ],
  },
  {
    title: '14. Changes to these terms',
    paragraphs: [
      'We may update these terms. We will give notice of material changes by email or in the service before they take effect. If you keep using LastSlot after that, the new terms apply.',
    ],
  },
  {
    title: '15. Governing law',
    paragraphs: [
      'These terms are governed by the law of the United Kingdom as it applies in England and Wales, and the courts of England and Wales have jurisdiction, without taking away any protection you have as a consumer under the law of the part of the UK where you live.',
    ],
  },
  {
    title: '16. Contact',
    paragraphs: [
      'Questions about these terms? Use the Get in Touch page in your account, or write to the support address given there. We aim to reply within two working days.',
    ],
  },
];

/** Privacy Policy: the topics the spec lists, with the minimum age of 16. */
export const PRIVACY_SECTIONS: LegalSection[] = [
  {
    title: 'Who we are',
    paragraphs: [
      'LastSlot is the controller of the personal data described here. This policy explains what we collect, why, and the choices you have.',
    ],
  },
  {
    title: 'Data we collect',
    paragraphs: [
      'Account data: your name, email address, a securely hashed password, and your account type.',
      'Business data: business name, description, category, address, phone number, business email, opening hours and the slots you publish.',
      'Booking data: the slots you request or manage, notes added to a request, and each booking’s status and history.',
      'Favourites: the businesses a customer bookmarks.',
      'Technical data: the session cookie that keeps you signed in, and server logs (IP address, time, pages requested) kept for security.',
    ],
  },
  {
    title: 'How we use it and our legal basis',
    paragraphs: [
      'To provide the service you signed up for (performance of a contract): accounts, booking pages, requests, confirmations and the emails about them.',
      'To keep LastSlot secure and prevent abuse, such as limiting repeated failed logins (our legitimate interests).',
      'To meet legal obligations, such as keeping records we are required to keep.',
      'Optional analytics or marketing cookies are used only with your consent, which you can withdraw at any time.',
    ],
  },
  {
    title: 'Sharing',
    paragraphs: [
      'When you request a slot, the business sees your name and email address, and the notes you add. Customers see a business’s public profile. We use carefully chosen processors to run LastSlot, such as our hosting and email delivery providers, under contracts that protect your data. We do not sell personal data.',
    ],
  },
  {
    title: 'Security',
    paragraphs: [
      'Passwords are stored only as strong one-way hashes, connections are encrypted, sessions can be ended from any device by changing your password, and access to data is limited to what each account needs.',
    ],
  },
  {
    title: 'Retention',
    paragraphs: [
      'We keep your data while your account exists. When you delete your account we delete your profile and personal details; a business keeps a record of past bookings it took, without the deleted customer’s contact details. Server logs are kept only as long as they are needed for security.',
    ],
  },
  {
    title: 'Your rights',
    paragraphs: [
      'Under UK data protection law you may access, correct, download, restrict, object to the use of, or delete your personal data. You can download your data and delete your account yourself in Settings, or ask us through the Get in Touch page. You may also complain to the Information Commissioner’s Office (ico.org.uk).',
    ],
  },
  {
    title: 'Cookies',
    paragraphs: [
      'We use a strictly necessary cookie to keep you signed in, and we remember your cookie choices. Analytics and marketing cookies are off unless you turn them on in the cookie settings.',
    ],
  },
  {
    title: 'Minimum age',
    paragraphs: ['LastSlot is not for children: you must be at least 16 years old to create an account.'],
  },
  {
    title: 'Data protection officer',
    paragraphs: [
      'Our data protection officer can be reached through the Get in Touch page with the subject “Data protection”. We answer requests about your rights within one month.',
    ],
  },
];
