import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type postgres from 'postgres';
import { afterEach, describe, expect, it } from 'vitest';
import { measure } from './load';
import { CLIENT_ADDRESSES, clientAddress } from './wire';

/**
 * The fixed-rate load shape the bench's p99 budgets are read at (autocannon, patched:
 * docs/decisions/0065-bench-fixed-rate-is-steady.md). These check the shape of the load and how
 * latencies are counted, against a local server; they time nothing of the app's.
 */
describe('bench fixed-rate load', () => {
  let server: Server | null = null;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  /**
   * A server answering 204 at once, or after `holdMs(n)` for its n-th request (from 0); records
   * arrivals and each request's X-Forwarded-For by its path.
   */
  async function start(holdMs: (n: number) => number = () => 0) {
    const arrivals: number[] = [];
    const forwardedFor = new Map<string, string | undefined>();
    server = createServer((req, res) => {
      forwardedFor.set(req.url ?? '', req.headers['x-forwarded-for'] as string | undefined);
      const n = arrivals.push(Date.now()) - 1;
      const hold = holdMs(n);
      if (hold > 0) setTimeout(() => res.writeHead(204).end(), hold);
      else res.writeHead(204).end();
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, arrivals, forwardedFor };
  }

  it('sends request i from client address i, one of CLIENT_ADDRESSES in turn', async () => {
    const { origin, forwardedFor } = await start();
    await measure(origin, { connections: 2, duration: 5, amount: 6 }, (i) => ({ method: 'GET', path: `/${i}` }));
    expect([...forwardedFor.keys()].sort()).toEqual(['/0', '/1', '/2', '/3', '/4', '/5']);
    for (const [path, address] of forwardedFor) expect(address).toBe(clientAddress(Number(path.slice(1))));
    expect(new Set(Array.from({ length: CLIENT_ADDRESSES }, (_, i) => clientAddress(i))).size).toBe(CLIENT_ADDRESSES);
    expect(clientAddress(CLIENT_ADDRESSES + 7)).toBe(clientAddress(7));
  });

  it('spreads the requests over each second instead of sending the second quota at once', async () => {
    const { origin, arrivals } = await start();
    // 40 requests at 40/s over 4 connections: one every 25 ms, about 10 in any 250 ms.
    const result = await measure(origin, { connections: 4, duration: 5, amount: 40, rate: 40 }, () => ({
      method: 'GET',
      path: '/',
    }));
    expect(result.requests).toBe(40);
    const first = arrivals[0]!;
    const inFirstQuarter = arrivals.filter((t) => t - first < 250).length;
    // Unpatched autocannon sends all 40 within the first milliseconds of the second.
    expect(inFirstQuarter).toBeLessThanOrEqual(20);
  });

  it('corrects a slow answer for the requests it held up at the schedule interval, not every millisecond', async () => {
    // One connection at 10/s (a request every 100 ms); the 5th answer takes 1 s. Corrected at the
    // 100 ms interval it adds 9 samples (900 ms down to 100 ms) to the 10 answers, so the median
    // stays a fast answer; at a 1 ms interval (unpatched) it would add 999 and the median would be
    // about 500 ms.
    const { origin } = await start((n) => (n === 4 ? 1_000 : 0));
    const result = await measure(origin, { connections: 1, duration: 10, amount: 10, rate: 10 }, () => ({
      method: 'GET',
      path: '/',
    }));
    expect(result.requests).toBe(10);
    expect(result.p99).toBeGreaterThanOrEqual(900);
    expect(result.p50).toBeLessThan(250);
  });

  it("counts a run's throughput until the work its requests queued is done, not only while it sends", async () => {
    const { origin } = await start();
    // The target's queued work takes 1 s to finish after the load (and 1 s before it, which the
    // reading before the load waits out and which must not count).
    const settleMs = 1_000;
    const noBackends = (async () => []) as unknown as postgres.Sql;
    const result = await measure(origin, { connections: 2, duration: 1 }, () => ({ method: 'GET', path: '/' }), {
      pid: process.pid,
      monitor: noBackends,
      dbName: 'none',
      settle: () => new Promise((resolve) => setTimeout(resolve, settleMs)),
    });
    expect(result.requests).toBeGreaterThan(0);
    expect(result.settleS).toBeGreaterThanOrEqual(settleMs / 1000 - 0.01);
    expect(result.settleS).toBeLessThan(2 * (settleMs / 1000));
    expect(result.doneRps).toBeCloseTo(result.requests / (result.durationS + result.settleS), 6);
    expect(result.doneRps).toBeLessThan(result.rps);
  });
});
