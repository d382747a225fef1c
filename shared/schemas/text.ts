/**
 * The one string builder of every input schema (docs/decisions/0030). A string field refuses,
 * before any other check, what no form can type and what the database or an email header cannot
 * hold safely:
 * - U+0000 (PostgreSQL text cannot store it),
 * - a lone UTF-16 surrogate (not text: it cannot be encoded as UTF-8),
 * - in single-line fields (names, emails, slugs, phone, address, a slot's description, tokens...),
 *   the line breaks (CR, LF, VT, FF, NEL and the Unicode line and paragraph separators), which
 *   would otherwise reach email headers and one-line displays, every other C0 and C1 control
 *   character but tab (ESC, DEL, ...), which a page or an email would show as garbage or a
 *   terminal would obey, and the bidirectional embedding, override and isolate controls
 *   (U+202A-U+202E, U+2066-U+2069), with which a name shown to others (a page title, an email
 *   subject, a calendar) could reorder the text after it;
 * - in multi-line fields (a business's description, booking notes, the contact form), the C0 and
 *   C1 control characters but tab, CR and LF (docs/decisions/0077).
 * Passwords (`verbatim`) are taken as typed. Each refusal has its own message; it comes first, so
 * the 400 answer names it.
 */
import { z } from 'zod';
import { BIDI_CONTROL } from '../display-text';
import { MSG } from '../messages';

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** Line breaks: CR, LF, VT, FF, NEL, the Unicode line and paragraph separators. */
const LINE_BREAK = /[\r\n\v\f\u0085\u2028\u2029]/;
/** C0 and C1 control characters and DEL, except tab (one-line fields; line breaks are refused first). */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_EXCEPT_TAB = /[\u0000-\u0008\u000A-\u001F\u007F-\u009F]/;
/** The same, except tab, CR and LF (multi-line fields keep their line breaks). */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_EXCEPT_TAB_AND_BREAKS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;

export interface TextOptions {
  /** Message when the value is missing or not a string (zod's `error`). */
  error?: string;
  /**
   * Multi-line fields (message, notes, a business's description) may hold tab, CR, LF and
   * bidirectional controls: they are shown as paragraphs of their own, never in a title or
   * subject (a meta description flattens them, `oneLine`). Other control characters are refused.
   */
  multiline?: boolean;
  /** Passwords: taken as typed, only NUL and lone surrogates refused (they cannot be stored). */
  verbatim?: boolean;
}

/**
 * A zod string that refuses NUL and lone surrogates; unless `verbatim`, control characters (but
 * tab, and CR and LF when `multiline`); unless `multiline` or `verbatim`, line breaks and
 * bidirectional controls. Each with its own message (MSG.textControlCharacters,
 * MSG.textUnreadable, MSG.textOneLine, MSG.textDirectionControls). Chain the field's own checks
 * (`.trim()`, `.min()`, `.regex()`...) after it.
 */
export function safeText(options: TextOptions = {}) {
  const base = options.error === undefined ? z.string() : z.string({ error: options.error });
  const checked = base
    .refine((v) => !v.includes('\u0000'), { message: MSG.textControlCharacters, abort: true })
    .refine((v) => !LONE_SURROGATE.test(v), { message: MSG.textUnreadable, abort: true });
  if (options.verbatim) return checked;
  if (options.multiline)
    return checked.refine((v) => !CONTROL_EXCEPT_TAB_AND_BREAKS.test(v), {
      message: MSG.textControlCharacters,
      abort: true,
    });
  return checked
    .refine((v) => !LINE_BREAK.test(v), { message: MSG.textOneLine, abort: true })
    .refine((v) => !CONTROL_EXCEPT_TAB.test(v), { message: MSG.textControlCharacters, abort: true })
    .refine((v) => !BIDI_CONTROL.test(v), { message: MSG.textDirectionControls, abort: true });
}
