import { describe, expect, it } from 'vitest';
import { DEFAULT_MAP_TILES } from '../../shared/map-tiles';
import { appOrigin, loadEnv, mapTiles, workerCount } from './env';

describe('environment', () => {
  it('gives working defaults for a bare local start', () => {
    const env = loadEnv({});
    expect(env).toMatchObject({ NODE_ENV: 'development', HOST: '127.0.0.1', PORT: 3000, SEED_DEMO: true });
    expect(env.DATABASE_URL).toBeUndefined();
    expect(appOrigin(env)).toBe('http://localhost:3000');
  });

  it('treats empty values from a copied .env.example as unset', () => {
    const env = loadEnv({ APP_URL: '', DATABASE_URL: '', RESEND_API_KEY: '' });
    expect([env.APP_URL, env.DATABASE_URL, env.RESEND_API_KEY]).toEqual([undefined, undefined, undefined]);
  });

  it('names each bad variable in a clear message', () => {
    expect(() => loadEnv({ PORT: 'eighty', LOG_LEVEL: 'loud' })).toThrow(/PORT:[\s\S]*LOG_LEVEL:/);
  });

  it('requires an https APP_URL and a mail provider in production', () => {
    expect(() => loadEnv({ NODE_ENV: 'production' })).toThrow(/APP_URL: required in production[\s\S]*RESEND_API_KEY/);
    expect(
      loadEnv({ NODE_ENV: 'production', APP_URL: 'https://lastslot.example', RESEND_API_KEY: 're_x' }).NODE_ENV,
    ).toBe('production');
  });

  it('defaults to no proxy trust and 300 mutations a minute, and reads both when set', () => {
    expect(loadEnv({})).toMatchObject({ TRUST_PROXY: false, RATE_LIMIT_MUTATIONS_PER_MINUTE: 300 });
    expect(loadEnv({ TRUST_PROXY: '', RATE_LIMIT_MUTATIONS_PER_MINUTE: '' })).toMatchObject({
      TRUST_PROXY: false,
      RATE_LIMIT_MUTATIONS_PER_MINUTE: 300,
    });
    expect(loadEnv({ TRUST_PROXY: 'true', RATE_LIMIT_MUTATIONS_PER_MINUTE: '1000' })).toMatchObject({
      TRUST_PROXY: true,
      RATE_LIMIT_MUTATIONS_PER_MINUTE: 1000,
    });
    expect(loadEnv({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,loopback,::1' }).TRUST_PROXY).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
      'loopback',
      '::1',
    ]);
  });

  it('allows 20 live streams per client IP by default, reads another cap, and refuses one below 1', () => {
    expect(loadEnv({}).RATE_LIMIT_LIVE_STREAMS_PER_IP).toBe(20);
    expect(loadEnv({ RATE_LIMIT_LIVE_STREAMS_PER_IP: '50' }).RATE_LIMIT_LIVE_STREAMS_PER_IP).toBe(50);
    expect(() => loadEnv({ RATE_LIMIT_LIVE_STREAMS_PER_IP: '0' })).toThrow(/RATE_LIMIT_LIVE_STREAMS_PER_IP:/);
  });

  it('refuses a bad proxy list or mutation limit with the variable named', () => {
    expect(() => loadEnv({ TRUST_PROXY: '2' })).toThrow(/TRUST_PROXY:/);
    expect(() => loadEnv({ TRUST_PROXY: 'proxy.example' })).toThrow(/TRUST_PROXY:/);
    expect(() => loadEnv({ RATE_LIMIT_MUTATIONS_PER_MINUTE: '0' })).toThrow(/RATE_LIMIT_MUTATIONS_PER_MINUTE:/);
    expect(() => loadEnv({ RATE_LIMIT_MUTATIONS_PER_MINUTE: 'lots' })).toThrow(/RATE_LIMIT_MUTATIONS_PER_MINUTE:/);
  });

  it('runs one worker on PGlite and one per core (or WEB_CONCURRENCY) on PostgreSQL', () => {
    const pg = 'postgres://app@db.example/lastslot';
    expect(workerCount(loadEnv({}), 8)).toEqual({ count: 1, ignored: false });
    expect(workerCount(loadEnv({ WEB_CONCURRENCY: '4' }), 8)).toEqual({ count: 1, ignored: true });
    expect(workerCount(loadEnv({ DATABASE_URL: pg }), 8)).toEqual({ count: 8, ignored: false });
    expect(workerCount(loadEnv({ DATABASE_URL: pg, WEB_CONCURRENCY: '3' }), 8)).toEqual({ count: 3, ignored: false });
    expect(workerCount(loadEnv({ DATABASE_URL: pg, WEB_CONCURRENCY: '' }), 2)).toEqual({ count: 2, ignored: false });
  });

  it('refuses a WEB_CONCURRENCY that is not a whole number from 1 to 256', () => {
    for (const bad of ['0', '-1', '1.5', 'many', '257'])
      expect(() => loadEnv({ WEB_CONCURRENCY: bad })).toThrow(/WEB_CONCURRENCY:/);
  });

  it("defaults the maps' tiles to OpenStreetMap's, and reads a template and credit when set", () => {
    expect(mapTiles(loadEnv({ MAP_TILE_URL: '', MAP_TILE_ATTRIBUTION: '' }))).toEqual(DEFAULT_MAP_TILES);
    const own = { url: 'https://{s}.tiles.example.com/{z}/{x}/{y}{r}.png', attribution: '&copy; Example Maps' };
    expect(mapTiles(loadEnv({ MAP_TILE_URL: own.url, MAP_TILE_ATTRIBUTION: own.attribution }))).toEqual(own);
  });

  it('refuses a tile URL that is no template, or whose host no policy can allow', () => {
    for (const bad of [
      'https://tiles.example.com/tile.png',
      'ftp://tiles.example.com/{z}/{x}/{y}.png',
      'https://a.{s}.example.com/{z}/{x}/{y}.png',
    ])
      expect(() => loadEnv({ MAP_TILE_URL: bad })).toThrow(/MAP_TILE_URL:/);
  });

  it('keeps billing off by default, needs every Stripe setting with BILLING=stripe, and refuses BILLING=test in production', () => {
    expect(loadEnv({})).toMatchObject({
      BILLING: 'off',
      BILLING_LAUNCH_TRIAL_DAYS: 30,
      BILLING_TRIAL_DAYS: 14,
      BILLING_GRACE_DAYS: 7,
    });
    expect(loadEnv({ STRIPE_SECRET_KEY: 'sk_live_x' }).BILLING).toBe('off');
    expect(() => loadEnv({ BILLING: 'stripe', STRIPE_SECRET_KEY: 'sk_x' })).toThrow(
      /STRIPE_WEBHOOK_SECRET: required[\s\S]*STRIPE_PRICE_EARLY_ADOPTER[\s\S]*STRIPE_PRICE_LIST/,
    );
    const stripe = {
      BILLING: 'stripe',
      STRIPE_SECRET_KEY: 'sk_x',
      STRIPE_WEBHOOK_SECRET: 'whsec_x',
      STRIPE_PRICE_EARLY_ADOPTER: 'price_early',
      STRIPE_PRICE_LIST: 'price_list',
      BILLING_STARTS_AT: '2027-01-01T00:00:00Z',
      BILLING_TRIAL_DAYS: '7',
    };
    expect(loadEnv(stripe)).toMatchObject({ BILLING: 'stripe', BILLING_TRIAL_DAYS: 7 });
    expect(() => loadEnv({ ...stripe, BILLING_STARTS_AT: 'next week' })).toThrow(/BILLING_STARTS_AT:/);
    expect(loadEnv({ BILLING: 'test' }).BILLING).toBe('test');
    const production = { NODE_ENV: 'production', APP_URL: 'https://lastslot.example', RESEND_API_KEY: 're_x' };
    expect(() => loadEnv({ ...production, BILLING: 'test' })).toThrow(/BILLING: test .* refused in production/);
  });
});
