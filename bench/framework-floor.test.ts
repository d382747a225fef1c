import { describe, expect, it } from 'vitest';
import superjson from 'superjson';
import { floorServer } from './framework-floor-server';
import type { LoadResult } from './load';
import { formatSummary, type Row } from './report';
import { batchQueryPath } from './wire';

describe('target C, the framework alone', () => {
  it("answers the batch exactly as B answered it, through tRPC's adapter and superjson", async () => {
    const slots = [{ id: 's1', date: '2026-11-26', startsAt: new Date('2026-11-26T09:00:00Z') }];
    const requests = [{ bookingId: 'b1', customerName: 'Ann' }];
    const body = JSON.stringify([slots, requests].map((data) => ({ result: { data: superjson.serialize(data) } })));
    const app = await floorServer({ procedures: ['slots.listMine', 'bookings.requests'], body });
    try {
      const res = await app.inject({ method: 'GET', url: batchQueryPath(['slots.listMine', 'bookings.requests']) });

      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(body);
    } finally {
      await app.close();
    }
  });

  it('with plain answers, reads superjson inputs and sends the answers without superjson', async () => {
    const page = { business: { name: 'Studio' }, slots: [{ id: 's1', date: '2026-11-26' }] };
    const body = JSON.stringify([{ result: { data: superjson.serialize(page) } }]);
    const app = await floorServer({ procedures: ['businesses.bySlug'], body }, true);
    try {
      const res = await app.inject({ method: 'GET', url: batchQueryPath(['businesses.bySlug'], [{ slug: 'studio' }]) });

      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual([{ result: { data: page } }]);
    } finally {
      await app.close();
    }
  });
});

describe('the summary table', () => {
  const result = (doneRps: number): LoadResult => ({ doneRps, cpuPerReq: 100 }) as LoadResult;
  const row = (scenario: string, C: LoadResult[], CPlain: LoadResult[] = []): Row => ({
    scenario,
    mode: 'closed 32',
    closedLoop: true,
    A: [result(400)],
    B: [result(1000)],
    C,
    CPlain,
  });

  it("prints C's throughput over B's where C ran, and nothing where it did not", () => {
    const lines = formatSummary([row('public page', [result(660)]), row('booking request', [])]).split('\n');

    expect(lines[0]).toMatch(/\| C\/B \|$/);
    expect(lines[2]).toMatch(/^\| public page \| 400 \| 1,000 \| 0\.40 \|.*\| 0\.66 \|$/);
    expect(lines[3]).toMatch(/^\| booking request \|.*\| {2}\|$/);
  });

  it('adds the plain answers column only when C ran with plain answers', () => {
    const lines = formatSummary([row('public page', [result(660)], [result(1300)])]).split('\n');

    expect(lines[0]).toMatch(/\| C\/B \| C\/B, plain answers \|$/);
    expect(lines[2]).toMatch(/\| 0\.66 \| 1\.30 \|$/);
  });
});
