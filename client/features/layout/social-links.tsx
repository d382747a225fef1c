import { PLAIN_ICON_BUTTON } from './plain-controls';

/** LastSlot's social accounts, linked in the header for everyone. */
export const SOCIAL_LINKS = [
  {
    label: 'LastSlot on Instagram',
    href: 'https://www.instagram.com/lastslot',
    path: 'M7 3h10a4 4 0 014 4v10a4 4 0 01-4 4H7a4 4 0 01-4-4V7a4 4 0 014-4zm5 5a4 4 0 100 8 4 4 0 000-8zm5.2-1.7a1 1 0 100 2 1 1 0 000-2z',
  },
  {
    label: 'LastSlot on Facebook',
    href: 'https://www.facebook.com/lastslot',
    path: 'M14 8h3V4h-3a4 4 0 00-4 4v2H8v4h2v7h4v-7h3l1-4h-4V8.5c0-.3.2-.5.5-.5z',
  },
] as const;

/** The social icons of the header (open in a new tab): plain links drawn like Mantine's ActionIcon (PLAIN_ICON_BUTTON). */
export function SocialLinks() {
  return (
    <div className="app-header-icons">
      {SOCIAL_LINKS.map((s) => (
        <a
          key={s.href}
          href={s.href}
          target="_blank"
          rel="noopener noreferrer"
          className={PLAIN_ICON_BUTTON}
          data-variant="subtle"
          data-color="gray"
          aria-label={s.label}
        >
          <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" fill="currentColor" fillRule="evenodd">
            <path d={s.path} />
          </svg>
        </a>
      ))}
    </div>
  );
}
