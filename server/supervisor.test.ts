/**
 * The supervisor's bookkeeping with node:cluster replaced by a fake: which roles it forks, that it
 * relays the HTTP workers' outbox kicks to the mail worker only, and that a dead worker is replaced
 * by one of the same role. The real processes are exercised by tests/integration/supervisor.test.ts
 * and tests/faults/failover.test.ts.
 */
import { EventEmitter } from 'node:events';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

class FakeWorker extends EventEmitter {
  static nextPid = 1000;
  readonly process = { pid: FakeWorker.nextPid++, kill: vi.fn() };
  readonly sent: unknown[] = [];
  dead = false;
  constructor(readonly env: Record<string, string>) {
    super();
  }
  send(msg: unknown) {
    this.sent.push(msg);
    return true;
  }
  isDead() {
    return this.dead;
  }
  isConnected() {
    return !this.dead;
  }
}

const fake = vi.hoisted(() => ({ cluster: null as unknown as EventEmitter & { fork: (env: object) => unknown } }));
vi.mock('node:cluster', async () => {
  const { EventEmitter: Emitter } = await import('node:events');
  const cluster = Object.assign(new Emitter(), { workers: {}, fork: (env: Record<string, string>) => env });
  fake.cluster = cluster as typeof fake.cluster;
  return { default: cluster };
});

const { kickMailWorker, serveMailWorker, superviseWorkers, WORKER_ROLE_ENV } = await import('./supervisor');

let forked: FakeWorker[];
beforeEach(() => {
  forked = [];
  fake.cluster.removeAllListeners();
  fake.cluster.fork = (env: object) => {
    const w = new FakeWorker(env as Record<string, string>);
    forked.push(w);
    return w;
  };
});

const role = (w: FakeWorker) => w.env[WORKER_ROLE_ENV];
const logger = pino({ level: 'silent' });

describe('superviseWorkers', () => {
  it('forks the HTTP workers and one mail worker, and relays outbox kicks to the mail worker only', () => {
    superviseWorkers({ count: 2, mailWorker: true, logger });
    expect(forked.map(role)).toEqual(['http-remote-mail', 'http-remote-mail', 'mail']);
    const [http1, http2, mail] = forked as [FakeWorker, FakeWorker, FakeWorker];
    fake.cluster.emit('message', http1, { type: 'outbox-kick' });
    fake.cluster.emit('message', http2, { type: 'something else' });
    expect(mail.sent).toEqual([{ type: 'outbox-kick' }]);
    expect(http1.sent).toEqual([]);
    expect(http2.sent).toEqual([]);
  });

  it('without a mail worker, forks HTTP workers that send their own outbox', () => {
    superviseWorkers({ count: 1, logger });
    expect(forked.map(role)).toEqual(['http']);
  });

  it('replaces a dead mail worker by a mail worker, which then receives the kicks', () => {
    superviseWorkers({ count: 1, mailWorker: true, logger });
    const [http, mail] = forked as [FakeWorker, FakeWorker];
    fake.cluster.emit('message', mail, { type: 'mail-ready' });
    mail.dead = true;
    fake.cluster.emit('exit', mail, null, 'SIGKILL');
    const replacement = forked[2]!;
    expect(role(replacement)).toBe('mail');
    fake.cluster.emit('message', http, { type: 'outbox-kick' });
    expect(replacement.sent).toEqual([{ type: 'outbox-kick' }]);
    expect(mail.sent).toEqual([]);
  });
});

describe('the mail worker IPC', () => {
  // The test runner's own worker talks to it over this same channel: only what a test adds is undone.
  const original = { send: process.send, connected: Object.getOwnPropertyDescriptor(process, 'connected') };
  let listeners: ((...args: unknown[]) => void)[] = [];
  beforeEach(() => {
    listeners = process.listeners('message') as typeof listeners;
  });
  afterEach(() => {
    process.send = original.send;
    if (original.connected) Object.defineProperty(process, 'connected', original.connected);
    for (const l of process.listeners('message'))
      if (!listeners.includes(l as (typeof listeners)[number])) process.off('message', l);
  });

  it('kickMailWorker sends one kick for all the kicks of one event-loop turn', async () => {
    const send = vi.fn(() => true);
    process.send = send;
    Object.defineProperty(process, 'connected', { value: true, configurable: true });
    kickMailWorker();
    kickMailWorker();
    kickMailWorker();
    await new Promise((r) => setImmediate(r));
    expect(send.mock.calls).toEqual([[{ type: 'outbox-kick' }]]);
    kickMailWorker();
    await new Promise((r) => setImmediate(r));
    expect(send).toHaveBeenCalledTimes(2);
  });

  it('serveMailWorker says it is ready and runs the dispatcher on each relayed kick', () => {
    const send = vi.fn(() => true);
    process.send = send;
    const kick = vi.fn();
    serveMailWorker(kick);
    expect(send.mock.calls).toEqual([[{ type: 'mail-ready' }]]);
    process.emit('message', { type: 'outbox-kick' }, undefined);
    process.emit('message', { type: 'other' }, undefined);
    expect(kick).toHaveBeenCalledTimes(1);
  });
});
