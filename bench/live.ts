/**
 * Live-update delivery: N SSE subscribers on bookings.onChange (business sessions, raw HTTP), fed
 * by NOTIFY on the app's channel `booking_events` at a fixed delivery rate; each event's latency is
 * the time from just before the NOTIFY is sent to its arrival at a subscriber.
 */
import http from 'node:http';
import postgres from 'postgres';
import { businessToken } from './db';
import { backendCpu, backendCpuDelta, processCpuMicros } from './targets';
import type { CpuProbe, LoadResult } from './load';
import { sessionCookie, subscriptionPath } from './wire';

/** Shape of the live-update run. */
export interface LiveOptions {
  /** SSE connections (2 per business: two open dashboard tabs). */
  subscribers: number;
  /** Target deliveries per second (events x subscribers of the event's business). */
  deliveriesPerSecond: number;
  /** Seconds of NOTIFY traffic. */
  duration: number;
  /** Business numbers to subscribe as (1-based), at least subscribers / 2 of them. */
  businessIds: (i: number) => number;
  /** User id of business number i, as seeded (bench_uuid('business-' || i), bench/db.ts). */
  businessUuid: (i: number) => string;
}

/** A deterministic UUID carrying sequence number `seq` (so a delivery names its event). */
const seqUuid = (seq: number) => `00000000-0000-4000-8000-${seq.toString(16).padStart(12, '0')}`;
const uuidSeq = (id: string) => parseInt(id.slice(24), 16);

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Opens one SSE subscription; calls onEvent with each data payload; resolves once the first event arrived. */
function subscribe(origin: string, token: string, onData: (data: string) => void): Promise<http.ClientRequest> {
  return new Promise((resolve, reject) => {
    const url = new URL(subscriptionPath('bookings.onChange'), origin);
    const req = http.get(url, { headers: { cookie: sessionCookie(token), accept: 'text/event-stream' }, agent: false });
    req.on('response', (res) => {
      if (res.statusCode !== 200) {
        reject(new Error(`subscription answered ${res.statusCode}`));
        res.resume();
        return;
      }
      res.setEncoding('utf8');
      let buffer = '';
      let first = true;
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = block
            .split('\n')
            .filter((l) => l.startsWith('data:'))
            .map((l) => l.slice(5).trimStart())
            .join('\n');
          if (!data || block.includes('event: connected') || block.includes('event: ping')) continue;
          if (first) {
            first = false;
            req.setTimeout(0);
            resolve(req);
          }
          onData(data);
        }
      });
      res.on('error', () => {});
    });
    req.on('error', reject);
    req.setTimeout(10_000, () => {
      req.destroy();
      reject(new Error('subscription sent no event within 10 s'));
    });
  });
}

/**
 * Runs the live-update scenario against `origin`. Returns deliveries/s, latency p50/p99 (ms, exact
 * from every sample), the target's CPU per delivery, and `statuses` with counts of
 * delivered / lost events (keys 'delivered', 'lost').
 */
export async function measureLive(
  origin: string,
  databaseUrl: string,
  opts: LiveOptions,
  probe?: CpuProbe,
): Promise<LoadResult> {
  const sentAt = new Map<number, number>();
  const latencies: number[] = [];
  const perBusiness = 2;
  const businesses = Math.max(1, Math.ceil(opts.subscribers / perBusiness));
  const requests: http.ClientRequest[] = [];
  const onData = (data: string) => {
    const at = performance.now();
    try {
      const parsed = JSON.parse(data) as { json?: { bookingId?: string | null }; bookingId?: string | null };
      const id = parsed.json?.bookingId ?? parsed.bookingId;
      if (!id) return;
      const t0 = sentAt.get(uuidSeq(id));
      if (t0 !== undefined) latencies.push(at - t0);
    } catch {
      // not an event of ours
    }
  };
  for (let s = 0; s < opts.subscribers; s++) {
    const b = opts.businessIds(Math.floor(s / perBusiness));
    requests.push(await subscribe(origin, businessToken(b), onData));
  }
  const notifier = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  const [{ pid: notifierPid } = { pid: 0 }] = await notifier<{ pid: number }[]>`select pg_backend_pid() as pid`;
  const eventsPerSecond = opts.deliveriesPerSecond / perBusiness;
  const total = Math.round(eventsPerSecond * opts.duration);
  const cpu0 = probe ? processCpuMicros(probe.pid) : null;
  const db0 = probe ? await backendCpu(probe.monitor, probe.dbName, [notifierPid]) : null;
  const start = performance.now();
  let seq = 0;
  while (seq < total) {
    const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * eventsPerSecond) + 1);
    const batch: Promise<unknown>[] = [];
    for (; seq < due; seq++) {
      const b = opts.businessIds(seq % businesses);
      const payload = JSON.stringify({
        kind: 'booking',
        change: 'requested',
        bookingId: seqUuid(seq),
        slotId: null,
        businessId: opts.businessUuid(b),
        customerId: null,
      });
      sentAt.set(seq, performance.now());
      batch.push(notifier.notify('booking_events', payload));
    }
    await Promise.all(batch);
    await new Promise((r) => setTimeout(r, 2));
  }
  const sendSeconds = (performance.now() - start) / 1000;
  // Let the last events arrive (or be declared lost).
  const expected = total * perBusiness;
  const waitUntil = performance.now() + 2000;
  while (latencies.length < expected && performance.now() < waitUntil) await new Promise((r) => setTimeout(r, 20));
  const cpu1 = probe ? processCpuMicros(probe.pid) : null;
  const db1 = probe ? await backendCpu(probe.monitor, probe.dbName, [notifierPid]) : null;
  for (const r of requests) r.destroy();
  await notifier.end({ timeout: 2 });
  const sorted = [...latencies].sort((a, b) => a - b);
  const delivered = latencies.length;
  return {
    requests: delivered,
    rps: delivered / sendSeconds,
    // A delivery leaves nothing queued behind it.
    doneRps: delivered / sendSeconds,
    settleS: 0,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    statuses: { delivered, lost: expected - delivered },
    errors: 0,
    cpuPerReq: cpu0 !== null && cpu1 !== null && delivered > 0 ? (cpu1 - cpu0) / delivered : null,
    dbCpuPerReq: db0 && db1 && delivered > 0 ? backendCpuDelta(db0, db1) / delivered : null,
    durationS: sendSeconds,
  };
}
