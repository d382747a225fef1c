/**
 * The one string builder of every input schema (docs/decisions/0030). A string field refuses,
 * before any other check, what no form can type and what the database or an email header cannot
 * hold safely:
 * - U+0000 (PostgreSQL text cannot store it),
 * - a lone UTF-16 surrogate (not text: it cannot be encoded as UTF-8),
 * - in single-line fields (names, emails, slugs, phone, address, a slot's description, tokens...),
 *   CR and LF (and the Unicode line and paragraph separators), which would otherwise reach email
 *   headers and one-line displays, and the bidirectional embedding, override and isolate controls
 *   (U+202A-U+202E, U+2066-U+2069), with which a name shown to others (a page title, an email
 *   subject, a calendar) could reorder the text after it.
 * Each refusal has its own message; it comes first, so the 400 answer names it.
 */
import { z } from 'zod';
import { BIDI_CONTROL } from '../display-text';
import { MSG } from '../messages';

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const LINE_BREAK = /[\r\n\u2028\u2029]/;

export interface TextOptions {
  /** Message when the value is missing or not a string (zod's `error`). */
  error?: string;
  /**
   * Multi-line fields (message, notes, a business's description, passwords) may hold line breaks
   * and bidirectional controls: passwords are taken as typed, and the others are shown as
   * paragraphs of their own, never in a title or subject.
   */
  multiline?: boolean;
}

/**
 * A zod string that refuses NUL, lone surrogates and (unless `multiline`) line breaks and
 * bidirectional controls, each with its own message (MSG.textControlCharacters,
 * MSG.textUnreadable, MSG.textOneLine, MSG.textDirectionControls). Chain the field's own checks
 * (`.trim()`, `.min()`, `.regex()`...) after it.
 */
export function safeText(options: TextOptions = {}) {
  const base = options.error === undefined ? z.string() : z.string({ error: options.error });
  const checked = base
    .refine((v) => !v.includes('\u0000'), { message: MSG.textControlCharacters, abort: true })
    .refine((v) => !LONE_SURROGATE.test(v), { message: MSG.textUnreadable, abort: true });
  return options.multiline
    ? checked
    : checked
        .refine((v) => !LINE_BREAK.test(v), { message: MSG.textOneLine, abort: true })
        .refine((v) => !BIDI_CONTROL.test(v), { message: MSG.textDirectionControls, abort: true });
}
