/**
 * The supervisor (docs/decisions/0028) on the real entry, as a child process on PGlite in a temp
 * folder: a worker killed while a request is in flight costs only that request; the primary logs
 * the death and forks a replacement, and the service answers again. SIGTERM stops everything
 * cleanly.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alive, childPids, healthy, startServerProcess, waitUntil, type ServerProcess } from '../setup/server-process';

let dir: string;
let server: ServerProcess;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'lastslot-supervisor-'));
  server = await startServerProcess({ PGLITE_DIR: path.join(dir, 'pglite'), LOG_LEVEL: 'warn' });
}, 240_000);

afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * Opens a POST whose body never comes (Expect: 100-continue), resolving once the worker's HTTP
 * server has taken it (the interim 100 arrived), so it is certainly in flight. `outcome` settles
 * with how it ended.
 */
function requestInFlight(url: string): Promise<{ outcome: Promise<string> }> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/trpc/contact.send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': '1000', expect: '100-continue', origin: url },
    });
    const outcome = new Promise<string>((done) => {
      req.once('response', (res) => done(`answered ${res.statusCode}`));
      req.once('error', (err) => done(`failed: ${(err as NodeJS.ErrnoException).code ?? err.message}`));
    });
    req.once('continue', () => resolve({ outcome }));
    req.once('error', reject);
    req.setTimeout(30_000, () => req.destroy(new Error('no answer in 30 s')));
    req.flushHeaders();
  });
}

describe('supervisor', () => {
  it('replaces a killed worker and logs it; only the requests in flight on it fail', async () => {
    const primary = server.child.pid!;
    const [worker] = childPids(primary);
    expect(worker).toBeDefined();

    const inFlight = await requestInFlight(server.url);
    process.kill(worker!, 'SIGKILL');

    expect(await inFlight.outcome).toMatch(/^failed/);
    const replaced = await waitUntil(
      () => server.logs.find((l) => l.msg === 'worker died; replaced' && l.workerPid === worker),
      { timeoutMs: 10_000, message: () => `no replacement logged:\n${server.output()}` },
    );
    expect(replaced).toMatchObject({ signal: 'SIGKILL', replacementPid: expect.any(Number) });
    await waitUntil(() => healthy(server.url), {
      timeoutMs: 120_000,
      message: () => `service did not answer again:\n${server.output()}`,
    });
    expect(childPids(primary)).toEqual([replaced.replacementPid]);
    expect(alive(primary)).toBe(true);
  }, 180_000);

  it('stops cleanly on SIGTERM: the workers first, then the primary, exit code 0', async () => {
    const workers = childPids(server.child.pid!);
    expect(await server.stop()).toBe(0);
    expect(workers.filter(alive)).toEqual([]);
  }, 60_000);
});
