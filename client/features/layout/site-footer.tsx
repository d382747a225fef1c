import { openCookieSettings } from '../consent/consent-store';
import { LegalLinks } from '../legal/legal-links';
import { OPERATOR } from '../legal/operator';
import './layout.css';
import { LogoMark } from './logo';

/**
 * The footer of every page: the Terms & Conditions and Privacy Policy dialogs, 'Cookie settings'
 * (reopens the consent dialog, so a choice can be changed or withdrawn), the support address and
 * the © line. It sits outside <main>, beside the desktop sidebar like the page itself. Its static
 * parts and its dialog links are plain elements styled by ./layout.css (ADR 0115).
 */
export function SiteFooter() {
  return (
    <footer className="site-footer">
      <div className="site-footer-inner">
        <div className="site-footer-brand">
          <div className="site-footer-name">
            <LogoMark size={22} />
            <p>LastSlot</p>
          </div>
          <p className="site-footer-small">
            © {new Date().getFullYear()} LastSlot · Last-minute appointments, booked in a tap.
          </p>
        </div>
        <div className="footer-links">
          <LegalLinks onCookieSettings={openCookieSettings} />
          <p className="site-footer-small">
            Help:{' '}
            <a href={`mailto:${OPERATOR.supportEmail}`} className="site-footer-help mantine-focus-auto">
              {OPERATOR.supportEmail}
            </a>
          </p>
        </div>
      </div>
    </footer>
  );
}

/** 'Skip to content': the first stop of the Tab key, shown only while focused; focuses <main>. */
export function SkipLink({ targetId }: { targetId: string }) {
  return (
    <a
      href={`#${targetId}`}
      className="skip-link"
      onClick={(e) => {
        const target = document.getElementById(targetId);
        if (!target) return;
        e.preventDefault();
        target.focus();
        target.scrollIntoView({ block: 'start' });
      }}
    >
      Skip to content
    </a>
  );
}
