/**
 * The one frame of every LastSlot email (React Email components): preview line, heading, body,
 * an optional call to action with the link written out, and the footer. Booking notifications
 * add the why-you-got-this line with the one-click unsubscribe and settings links.
 */
import {
  Body,
  Button,
  Container,
  Head,
  Heading,
  Hr,
  Html,
  Link,
  Preview,
  Section,
  Text,
} from '@react-email/components';
import type { ReactNode } from 'react';

const BRAND = '#0c8599';

export const styles = {
  body: { backgroundColor: '#f1f3f5', fontFamily: 'Arial, Helvetica, sans-serif', color: '#222', margin: 0 },
  container: {
    backgroundColor: '#ffffff',
    maxWidth: '560px',
    margin: '24px auto',
    padding: '24px',
    borderRadius: '8px',
  },
  heading: { fontSize: '20px', margin: '0 0 16px' },
  text: { fontSize: '15px', lineHeight: '22px', margin: '0 0 16px' },
  small: { fontSize: '13px', lineHeight: '18px', color: '#555', margin: '0 0 12px' },
  footer: { fontSize: '12px', lineHeight: '18px', color: '#888', margin: '0 0 6px' },
  button: {
    backgroundColor: BRAND,
    color: '#ffffff',
    padding: '12px 20px',
    borderRadius: '6px',
    textDecoration: 'none',
    display: 'inline-block',
    fontSize: '15px',
  },
  details: { backgroundColor: '#f8f9fa', borderLeft: `3px solid ${BRAND}`, padding: '8px 14px', margin: '0 0 16px' },
  detailLine: { fontSize: '15px', lineHeight: '22px', margin: '4px 0' },
} as const;

/** A call to action: the button, then the same link written out for clients that hide buttons. */
export interface Action {
  label: string;
  url: string;
}

/** Footer links of a booking notification (docs/decisions/0054). */
export interface NotificationFooter {
  /** Why the recipient gets this email, e.g. 'You receive this because you booked with LastSlot.' */
  reason: string;
  unsubscribeUrl: string;
  settingsUrl: string;
}

export function EmailLayout(props: {
  preview: string;
  title: string;
  children: ReactNode;
  action?: Action;
  footer?: NotificationFooter;
}) {
  const { preview, title, children, action, footer } = props;
  return (
    <Html lang="en-GB">
      <Head />
      <Preview>{preview}</Preview>
      <Body style={styles.body}>
        <Container style={styles.container}>
          <Heading as="h1" style={styles.heading}>
            {title}
          </Heading>
          {children}
          {action ? (
            <Section style={{ margin: '24px 0' }}>
              <Button href={action.url} style={styles.button}>
                {action.label}
              </Button>
              <Text style={{ ...styles.small, marginTop: '16px' }}>
                Or open this link: <Link href={action.url}>{action.url}</Link>
              </Text>
            </Section>
          ) : null}
          <Hr style={{ borderColor: '#e9ecef', margin: '24px 0 16px' }} />
          {footer ? (
            <Text style={styles.footer}>
              {footer.reason} <Link href={footer.unsubscribeUrl}>Unsubscribe from these emails</Link> or choose which
              emails you get in your <Link href={footer.settingsUrl}>notification settings</Link>.
            </Text>
          ) : null}
          <Text style={styles.footer}>LastSlot — last-minute appointments</Text>
        </Container>
      </Body>
    </Html>
  );
}

/** Paragraphs of body text. */
export function Paragraphs({ lines }: { lines: string[] }) {
  return (
    <>
      {lines.map((line, i) => (
        <Text key={i} style={styles.text}>
          {line}
        </Text>
      ))}
    </>
  );
}

/** 'Label: value' lines in a shaded box (appointment details, contact-form facts). */
export function DetailLines({ lines }: { lines: Array<[string, string]> }) {
  return (
    <Section style={styles.details}>
      {lines.map(([label, value]) => (
        <Text key={label} style={styles.detailLine}>
          <strong>{label}:</strong> {value}
        </Text>
      ))}
    </Section>
  );
}
