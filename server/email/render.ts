/**
 * Renders a stored outbox message (template name + props) into the HTML and plain-text parts
 * (React Email; docs/decisions/0051). The dispatcher calls it when it sends, so the change that
 * queued the message never pays for rendering.
 */
import { plainTextSelectors, render, toPlainText } from '@react-email/render';
import { emailElement } from './templates';

/**
 * Options of the plain-text part: React Email's selectors (preview text and images left out), the
 * heading in its own case, links as 'label url', no hard wrapping (links stay whole).
 */
const PLAIN_TEXT = {
  wordwrap: false as const,
  selectors: [...plainTextSelectors, { selector: 'h1', options: { uppercase: false } }],
};

/**
 * HTML and text of `template` with `props`. Throws for an unknown template (the row then fails
 * like a delivery error and is retried, then marked failed).
 */
export async function renderEmail(
  template: string,
  props: Record<string, unknown>,
): Promise<{ html: string; text: string }> {
  const html = await render(emailElement(template, props));
  return { html, text: toPlainText(html, PLAIN_TEXT) };
}

/**
 * `rows` with their HTML and text filled in where the dispatcher has not rendered them yet (a
 * message still queued, e.g. a reminder waiting for its time): for the development mailbox.
 */
export async function withBodies<
  R extends { template: string | null; props: Record<string, unknown> | null; html: string; text: string },
>(rows: R[]): Promise<R[]> {
  return Promise.all(
    rows.map(async (r) => (r.html || !r.template ? r : { ...r, ...(await renderEmail(r.template, r.props ?? {})) })),
  );
}
