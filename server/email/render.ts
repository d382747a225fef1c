/** Renders outbox messages at dispatch, so the change that queued one never pays for it (docs/decisions/0051). */
import { plainTextSelectors } from '@react-email/render';
import { compile } from 'html-to-text';
import { renderToStaticMarkup } from 'react-dom/server';
import { emailElement } from './templates';

/** The document type React Email's `render` puts before every email. */
const DOCTYPE =
  '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">';

/**
 * React Email's `toPlainText` options, unwrapped so links stay whole, compiled once: its `convert`
 * compiles them again for every message, most of its cost (docs/decisions/0056).
 */
const toPlainText = compile({
  wordwrap: false,
  selectors: [...plainTextSelectors, { selector: 'h1', options: { uppercase: false } }],
});

/**
 * HTML and text of `template` with `props`; throws for an unknown template. Rendered synchronously, not
 * with React Email's streaming `render` at six times the CPU, so a suspending template would throw
 * (docs/decisions/0070).
 */
export async function renderEmail(
  template: string,
  props: Record<string, unknown>,
): Promise<{ html: string; text: string }> {
  const html = DOCTYPE + renderToStaticMarkup(emailElement(template, props));
  return { html, text: toPlainText(html) };
}

/** `rows` with bodies rendered where the dispatcher has not yet, for the development mailbox. */
export async function withBodies<
  R extends { template: string | null; props: Record<string, unknown> | null; html: string; text: string },
>(rows: R[]): Promise<R[]> {
  return Promise.all(
    rows.map(async (r) => (r.html || !r.template ? r : { ...r, ...(await renderEmail(r.template, r.props ?? {})) })),
  );
}
