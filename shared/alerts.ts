/**
 * Alerts of new slots (docs/decisions/0086): how many a customer may keep, how often one emails,
 * and how an alert reads in Settings and in its emails.
 */
import { formatMiles, type DiscoveryWindow } from './discovery';

/** The most alerts a customer may keep (paused ones count). */
export const ALERT_LIMIT = 10;

/**
 * An alert's (or favourite's) email round, in minutes: the first new slot it hears of starts a
 * round, and when the round ends one email lists every slot of the round still open; so each
 * emails at most once per round.
 */
export const ALERT_EMAIL_INTERVAL_MINUTES = 15;

/** How an alert's time window reads: measured from when a slot is added. */
export const ALERT_WINDOW_LABELS: Record<DiscoveryWindow, string> = {
  '1h': 'Starting within 1 hour',
  '2h': 'Starting within 2 hours',
  '4h': 'Starting within 4 hours',
  today: 'Starting today',
  tomorrow: 'Starting tomorrow',
};

/** What an alert looks for, as it is shown. */
export interface AlertTerms {
  /** The place searched ('Leeds', 'LS1 6DL') or 'Your location'. */
  label: string;
  miles: number;
  window: DiscoveryWindow;
  /** A category group or child; null: every category. */
  category: string | null;
}

/** Where an alert looks: 'Within 5 miles of Leeds'. */
export function alertWhere(alert: Pick<AlertTerms, 'label' | 'miles'>): string {
  return `Within ${formatMiles(alert.miles)} of ${alert.label}`;
}

/** When and what an alert looks for: 'Starting within 2 hours · All categories'. */
export function alertWhat(alert: Pick<AlertTerms, 'window' | 'category'>): string {
  return `${ALERT_WINDOW_LABELS[alert.window]} · ${alert.category ?? 'All categories'}`;
}

/** The whole alert in one line: 'Within 5 miles of Leeds · Starting within 2 hours · All categories'. */
export function describeAlert(alert: AlertTerms): string {
  return `${alertWhere(alert)} · ${alertWhat(alert)}`;
}

/** The label of an alert saved from a position rather than a typed place. */
export const POSITION_ALERT_LABEL = 'your location';
