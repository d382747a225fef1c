/**
 * Renders a stored outbox message (template name + props) into the HTML and plain-text parts
 * (React Email; docs/decisions/0051). The dispatcher calls it when it sends, so the change that
 * queued the message never pays for rendering.
 */
import { plainTextSelectors } from '@react-email/render';
import { compile } from 'html-to-text';
import { renderToStaticMarkup } from 'react-dom/server';
import { emailElement } from './templates';

/** The document type React Email's `render` puts before every email (XHTML 1.0 Transitional). */
const DOCTYPE =
  '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">';

/**
 * The plain-text part's converter: React Email's `toPlainText` options (its selectors: preview
 * text and images left out, links as 'label url'; no hard wrapping, so links stay whole) plus the
 * heading in its own case. Compiled once (docs/decisions/0056): `toPlainText` calls html-to-text's
 * `convert`, which compiles the same options again for every message (most of its cost); the
 * compiled function gives the same text.
 */
const toPlainText = compile({
  wordwrap: false,
  selectors: [...plainTextSelectors, { selector: 'h1', options: { uppercase: false } }],
});

/**
 * HTML and text of `template` with `props`. Throws for an unknown template (the row then fails
 * like a delivery error and is retried, then marked failed).
 *
 * The templates are synchronous React Email components, rendered in one synchronous pass with
 * react-dom's `renderToStaticMarkup` behind React Email's document type (docs/decisions/0070):
 * React Email's own `render` streams through web streams inside a Suspense boundary, about six
 * times the CPU for the same markup plus the boundary's `<!--$-->` comments. A template that
 * suspended would throw here; none does.
 */
export async function renderEmail(
  template: string,
  props: Record<string, unknown>,
): Promise<{ html: string; text: string }> {
  const html = DOCTYPE + renderToStaticMarkup(emailElement(template, props));
  return { html, text: toPlainText(html) };
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
