/**
 * Billing in the tests (docs/decisions/0101): the local Stripe stand-in, the official SDK pointed at it,
 * and an API-only app whose POST /webhooks/stripe receives the stand-in's signed events (app.inject).
 */
import { afterAll, beforeAll } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../server/app';
import type { Billing } from '../../server/features/billing/billing-config';
import { stripeBillingPortal } from '../../server/features/billing/stripe-portal';
import { StripeStandIn } from '../../server/features/billing/stripe-stand-in';
import type { BillingTerms } from '../../server/features/billing/subscription-view';
import type { AppDeps } from '../../server/trpc/context';
import { silentLogger } from './test-database';

export const WEBHOOK_SECRET = 'whsec_test_local';
export const PRICE_IDS = { earlyAdopter: 'price_early_test', list: 'price_list_test' };

/** Posts a raw webhook body with `signature` to `app`; the answer's status and JSON. */
export async function postWebhook(app: FastifyInstance, payload: string, signature: string | undefined) {
  const res = await app.inject({
    method: 'POST',
    url: '/webhooks/stripe',
    headers: {
      'content-type': 'application/json',
      ...(signature === undefined ? {} : { 'stripe-signature': signature }),
    },
    payload,
  });
  return { status: res.statusCode, body: res.json() as unknown };
}

/**
 * Registers beforeAll/afterAll giving billing-on app deps over `base()` (useTestDeps's) with `terms`, a
 * started stand-in on the same clock, and the app its events go to. Read the getters inside tests only.
 */
export function useBilling(base: () => AppDeps, now: () => Date, terms: BillingTerms) {
  const state: { standIn?: StripeStandIn; deps?: AppDeps; app?: FastifyInstance } = {};
  beforeAll(async () => {
    const standIn = await new StripeStandIn({
      webhookSecret: WEBHOOK_SECRET,
      pagesOrigin: 'http://localhost:3000',
      now,
    }).start();
    const stripe = standIn.client();
    const billing: Billing = { mode: 'test', terms, stripe, webhookSecret: WEBHOOK_SECRET, prices: PRICE_IDS, standIn };
    const deps: AppDeps = { ...base(), billing, billingPortal: stripeBillingPortal(stripe) };
    const app = await buildServer({ deps, logger: silentLogger, clientDir: '/nonexistent' });
    standIn.deliverTo(async (payload, signature) => {
      const { status } = await postWebhook(app, payload, signature);
      if (status !== 200) throw new Error(`webhook answered ${status}`);
    });
    Object.assign(state, { standIn, deps, app });
  });
  afterAll(async () => {
    await state.app?.close();
    await state.standIn?.close();
  });
  const read = <K extends keyof typeof state>(key: K) => {
    const value = state[key];
    if (!value) throw new Error(`useBilling: read ${key} inside a test`);
    return value!;
  };
  return {
    get standIn() {
      return read('standIn');
    },
    get deps() {
      return read('deps');
    },
    get app() {
      return read('app');
    },
  };
}
