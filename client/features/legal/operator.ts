/**
 * Who runs this LastSlot installation, as the legal texts name it
 * (docs/decisions/0021-legal-texts-operator-and-contact.md). Set at build time through Vite
 * variables, so whoever deploys LastSlot puts in their own details; nothing here invents a company
 * name or a registration number.
 *
 * - VITE_LEGAL_OPERATOR: the legal name of the operator (default: none).
 * - VITE_LEGAL_ADDRESS: its postal address (default: none).
 * - VITE_SUPPORT_EMAIL: the public support mailbox (default support@lastslot.co.uk).
 * - VITE_PRIVACY_EMAIL: the data-protection mailbox (default privacy@lastslot.co.uk).
 */
function setting(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

const env = import.meta.env as Record<string, unknown>;

export interface OperatorDetails {
  /** Set when the deployment names its legal entity. */
  legalName: string | undefined;
  /** Set when the deployment publishes a postal address. */
  address: string | undefined;
  supportEmail: string;
  privacyEmail: string;
}

export const OPERATOR: OperatorDetails = {
  legalName: setting(env.VITE_LEGAL_OPERATOR),
  address: setting(env.VITE_LEGAL_ADDRESS),
  supportEmail: setting(env.VITE_SUPPORT_EMAIL) ?? 'support@lastslot.co.uk',
  privacyEmail: setting(env.VITE_PRIVACY_EMAIL) ?? 'privacy@lastslot.co.uk',
};

/** Who 'we' are, and where the operator's formal details are given (configured, or on request). */
export function operatorSentence(op: OperatorDetails = OPERATOR): string {
  if (op.legalName) {
    const address = op.address ? `, ${op.address}` : '';
    const onRequest = op.address
      ? ''
      : ` Our postal address and any company registration details are available on request from ${op.supportEmail}.`;
    return `LastSlot is operated by ${op.legalName}${address} ("LastSlot", "we", "us").${onRequest}`;
  }
  return `LastSlot ("we", "us") is an online service for appointment businesses and their customers. The legal name, postal address and any company registration details of the business that operates it are available on request from ${op.supportEmail}.`;
}
