import { describe, expect, it } from 'vitest';
import superjson from 'superjson';
import { floorServer } from './framework-floor-server';
import type { LoadResult } from './load';
import { formatSummary, type Row } from './report';
import { batchMutation, batchQueryPath } from './wire';

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

  it('answers a mutation (a booking request) with the stored successful answer', async () => {
    const booking = { id: 'b1', status: 'pending', createdAt: new Date('2026-11-26T09:00:00Z') };
    const body = JSON.stringify([{ result: { data: superjson.serialize(booking) } }]);
    const app = await floorServer({ procedures: ['bookings.request'], body, type: 'mutation' });
    try {
      const { path, body: input } = batchMutation('bookings.request', { slotId: 'any' });
      const res = await app.inject({
        method: 'POST',
        url: path,
        payload: input,
        headers: { 'content-type': 'application/json' },
      });

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
    rates: [],
    A: [result(400)],
    B: [result(1000)],
    C,
    CPlain,
  });

  it('prints A over B, over C and over their combined floor where C ran, and nothing for C where it did not', () => {
    const lines = formatSummary([row('public data call', [result(4000)]), row('public page', [])]).split('\n');

    expect(lines[0]).toMatch(/^\| scenario \| A done\/s \| B done\/s \| C done\/s \| A\/B \| A\/C \| A\/combined \|/);
    // Combined floor of 1000/s and 4000/s: 800/s.
    expect(lines[2]).toMatch(/^\| public data call \| 400 \| 1,000 \| 4,000 \| 0\.40 \| 0\.10 \| 0\.50 \|/);
    expect(lines[3]).toMatch(/^\| public page \| 400 \| 1,000 \| - \| 0\.40 \| {2}\| {2}\|/);
  });

  it('adds the plain answers column only when C ran with plain answers', () => {
    const lines = formatSummary([row('public page', [result(660)], [result(1300)])]).split('\n');

    expect(lines[0]).toMatch(/\| C\/B, plain answers \|$/);
    expect(lines[2]).toMatch(/\| 1\.30 \|$/);
  });
});
