/**
 * A local, stateful stand-in for the part of Stripe's API LastSlot uses (docs/decisions/0101): the
 * official SDK talks to it over HTTP (its host, port and protocol options), and it sends the webhook
 * events Stripe would, signed with the SDK's test signature, to the app's own webhook handler. It serves
 * BILLING=test in development (the "Test checkout" and portal pages drive it) and the tests; never
 * production. State lives in this process's memory.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

const DAY_S = 86_400;
/** The stand-in's billing period: 30 days. */
const PERIOD_S = 30 * DAY_S;

type Json = Record<string, unknown>;

/** Where a signed event goes: the app's webhook handler. Rejects when it does not answer 2xx. */
export type WebhookDelivery = (payload: string, signature: string) => Promise<void>;

export interface StandInSubscription extends Json {
  id: string;
  object: 'subscription';
  customer: string;
  status: string;
  cancel_at_period_end: boolean;
  trial_end: number | null;
  created: number;
  items: {
    object: 'list';
    data: Array<{ id: string; price: { id: string }; current_period_start: number; current_period_end: number }>;
  };
  metadata: Record<string, string>;
}

interface Session extends Json {
  id: string;
  url: string;
  customer: string;
  client_reference_id: string | null;
  status: 'open' | 'complete' | 'expired';
  subscription: string | null;
  success_url: string;
  cancel_url: string;
  price: string;
  trial_end: number | null;
}

/** Parses Stripe's form encoding (`a[b][0][c]=v`) into nested objects and arrays of strings. */
export function parseStripeForm(body: string): Json {
  const root: Json = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const path = key.replace(/\]/g, '').split('[');
    let node: Record<string, unknown> = root;
    path.forEach((part, i) => {
      if (i === path.length - 1) node[part] = value;
      else node = (node[part] ??= /^\d+$/.test(path[i + 1]!) ? [] : {}) as Record<string, unknown>;
    });
  }
  return root;
}

const id = (prefix: string) => `${prefix}_${randomBytes(8).toString('hex')}`;

export interface StripeStandInOptions {
  webhookSecret: string;
  /** Sends each event to the app; set later with `deliverTo` when the app is built after the stand-in. */
  deliver?: WebhookDelivery;
  /** Where the pages of Checkout and the portal are: `${pagesOrigin}/dev/stripe/...`. */
  pagesOrigin: string;
  /** The stand-in's clock; the tests move it. */
  now?: () => Date;
}

/** The stand-in: its API server, its state, and the actions a customer takes on Stripe's pages. */
export class StripeStandIn {
  readonly customers = new Map<string, Json>();
  readonly sessions = new Map<string, Session>();
  readonly portalSessions = new Map<string, { id: string; customer: string; return_url: string }>();
  readonly subscriptions = new Map<string, StandInSubscription>();
  /** Every event sent, in order, with its payload, for replays in tests. */
  readonly events: Array<{ event: Json; payload: string }> = [];
  private readonly idempotent = new Map<string, { status: number; body: Json }>();
  private server: Server | null = null;
  private deliver: WebhookDelivery | undefined;
  readonly now: () => Date;

  constructor(private readonly options: StripeStandInOptions) {
    this.deliver = options.deliver;
    this.now = options.now ?? (() => new Date());
  }

  /** Listens on 127.0.0.1 at a free port. */
  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      this.answer(req, res).catch(() => send(res, 500, { error: { type: 'api_error', message: 'stand-in failure' } }));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return this;
  }

  get port(): number {
    return (this.server!.address() as AddressInfo).port;
  }

  /** An official SDK client talking to this stand-in. */
  client(): Stripe {
    return new Stripe('sk_test_stand_in', {
      host: '127.0.0.1',
      port: this.port,
      protocol: 'http',
      maxNetworkRetries: 0,
    });
  }

  deliverTo(deliver: WebhookDelivery): void {
    this.deliver = deliver;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private seconds(): number {
    return Math.floor(this.now().getTime() / 1000);
  }

  private async answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const params = parseStripeForm(Buffer.concat(chunks).toString('utf8'));
    const key = req.headers['idempotency-key'];
    const cacheKey = typeof key === 'string' ? `${req.url} ${key}` : null;
    const cached = cacheKey ? this.idempotent.get(cacheKey) : undefined;
    if (cached) return send(res, cached.status, cached.body);
    const [status, body] = this.route(req.method ?? 'GET', (req.url ?? '').split('?')[0]!, params);
    if (cacheKey && status < 500) this.idempotent.set(cacheKey, { status, body });
    send(res, status, body);
  }

  private route(method: string, path: string, p: Json): [number, Json] {
    const missing: [number, Json] = [
      404,
      { error: { type: 'invalid_request_error', message: `No such resource: ${path}` } },
    ];
    if (method === 'POST' && path === '/v1/customers') {
      const customer = { id: id('cus'), object: 'customer', email: p.email ?? null, metadata: p.metadata ?? {} };
      this.customers.set(customer.id, customer);
      return [200, customer];
    }
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      const customer = String(p.customer ?? '');
      if (!this.customers.has(customer)) return missing;
      const items = (p.line_items ?? []) as Array<{ price?: string }>;
      const data = (p.subscription_data ?? {}) as { trial_end?: string };
      const session: Session = {
        id: id('cs_test'),
        object: 'checkout.session',
        mode: String(p.mode),
        url: '',
        customer,
        client_reference_id: (p.client_reference_id as string | undefined) ?? null,
        status: 'open',
        subscription: null,
        success_url: String(p.success_url),
        cancel_url: String(p.cancel_url),
        price: String(items[0]?.price ?? ''),
        trial_end: data.trial_end ? Number(data.trial_end) : null,
        metadata: p.metadata ?? {},
      };
      session.url = `${this.options.pagesOrigin}/dev/stripe/checkout/${session.id}`;
      this.sessions.set(session.id, session);
      return [200, session];
    }
    const sub = path.match(/^\/v1\/subscriptions\/([\w-]+)$/);
    if (method === 'GET' && sub) {
      const found = this.subscriptions.get(sub[1]!);
      return found ? [200, found] : missing;
    }
    if (method === 'DELETE' && sub) {
      // Cancel now (not at the period's end), and tell the app as Stripe does, after answering.
      const found = this.subscriptions.get(sub[1]!);
      if (!found) return missing;
      Object.assign(found, { status: 'canceled', canceled_at: this.seconds() });
      setImmediate(() => void this.emit('customer.subscription.deleted', found).catch(() => undefined));
      return [200, found];
    }
    if (method === 'POST' && path === '/v1/billing_portal/sessions') {
      const customer = String(p.customer ?? '');
      if (!this.customers.has(customer)) return missing;
      const portal = { id: id('bps'), customer, return_url: String(p.return_url) };
      this.portalSessions.set(portal.id, portal);
      return [
        200,
        {
          ...portal,
          object: 'billing_portal.session',
          url: `${this.options.pagesOrigin}/dev/stripe/portal/${portal.id}`,
        },
      ];
    }
    return missing;
  }

  /** Sends `type` about `object` to the app, signed as Stripe signs it. */
  async emit(type: string, object: Json): Promise<Json> {
    const event = {
      id: id('evt'),
      object: 'event',
      type,
      created: this.seconds(),
      livemode: false,
      data: { object: structuredClone(object) },
    };
    const payload = JSON.stringify(event);
    this.events.push({ event, payload });
    await this.send(payload);
    return event;
  }

  /** Sends a recorded `payload` again (a replay or a retry), with a fresh signature. */
  async send(payload: string, secret = this.options.webhookSecret): Promise<void> {
    const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret });
    if (!this.deliver) throw new Error('stand-in: nowhere to deliver webhook events');
    await this.deliver(payload, signature);
  }

  private invoice(subscription: StandInSubscription, status: 'paid' | 'open'): Json {
    return {
      id: id('in'),
      object: 'invoice',
      customer: subscription.customer,
      status,
      amount_due: 0,
      parent: { type: 'subscription_details', subscription_details: { subscription: subscription.id } },
    };
  }

  /** "Pay" on the Checkout page: the subscription starts (trialing when the session asked for a trial). */
  async pay(sessionId: string): Promise<Session> {
    const session = this.sessions.get(sessionId);
    if (!session || session.status !== 'open') throw new Error('stand-in: no open checkout session');
    const now = this.seconds();
    const periodEnd = session.trial_end ?? now + PERIOD_S;
    const subscription: StandInSubscription = {
      id: id('sub'),
      object: 'subscription',
      customer: session.customer,
      status: session.trial_end ? 'trialing' : 'active',
      cancel_at_period_end: false,
      trial_end: session.trial_end,
      created: now,
      items: {
        object: 'list',
        data: [
          { id: id('si'), price: { id: session.price }, current_period_start: now, current_period_end: periodEnd },
        ],
      },
      metadata: {},
    };
    this.subscriptions.set(subscription.id, subscription);
    Object.assign(session, { status: 'complete', subscription: subscription.id });
    await this.emit('checkout.session.completed', session);
    await this.emit('customer.subscription.created', subscription);
    if (subscription.status === 'active') await this.emit('invoice.paid', this.invoice(subscription, 'paid'));
    return session;
  }

  /** "Cancel" in the portal: the subscription ends at its period's end. */
  async cancelAtPeriodEnd(subscriptionId: string): Promise<StandInSubscription> {
    const subscription = this.mustGet(subscriptionId);
    subscription.cancel_at_period_end = true;
    await this.emit('customer.subscription.updated', subscription);
    return subscription;
  }

  /**
   * The current period ends (move the clock first): a canceling subscription is deleted; otherwise a
   * renewal is charged and `pays` says whether it succeeds (else past_due). A past_due one that fails
   * again stays past_due.
   */
  async endPeriod(subscriptionId: string, pays = true): Promise<StandInSubscription> {
    const subscription = this.mustGet(subscriptionId);
    const item = subscription.items.data[0]!;
    if (subscription.cancel_at_period_end) {
      subscription.status = 'canceled';
      await this.emit('customer.subscription.deleted', subscription);
      return subscription;
    }
    if (pays) {
      item.current_period_start = item.current_period_end;
      item.current_period_end += PERIOD_S;
      subscription.status = 'active';
      await this.emit('invoice.paid', this.invoice(subscription, 'paid'));
    } else {
      subscription.status = 'past_due';
      await this.emit('invoice.payment_failed', this.invoice(subscription, 'open'));
    }
    await this.emit('customer.subscription.updated', subscription);
    return subscription;
  }

  private mustGet(subscriptionId: string): StandInSubscription {
    const subscription = this.subscriptions.get(subscriptionId);
    if (!subscription) throw new Error('stand-in: no such subscription');
    return subscription;
  }
}

function send(res: ServerResponse, status: number, body: Json): void {
  res.writeHead(status, { 'content-type': 'application/json', 'request-id': id('req') });
  res.end(JSON.stringify(body));
}
