import { execFile, spawn } from 'node:child_process';
import { Writable } from 'node:stream';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { buildServer } from './app';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from './core/paths';
import { createLogger, redactUrl } from './logger';
import type { AppDeps } from './trpc/context';

/** The HTTP server (no database) with the production JSON logger at info, writing into `lines`. */
async function serverLoggingTo() {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const logger = createLogger('info', false, sink);
  const deps = { db: {}, hub: {}, appOrigin: 'http://localhost', now: () => new Date() } as unknown as AppDeps;
  const app = await buildServer({ deps, logger, clientDir: '/nonexistent' });
  return { app, lines };
}

describe('logging', () => {
  it('redacts tokens in URLs', () => {
    expect(redactUrl('/auth-redirect?token=abc123&x=1')).toBe('/auth-redirect?token=[redacted]&x=1');
    expect(redactUrl('/reset-password?type=recovery&access_token=zzz')).toBe(
      '/reset-password?type=recovery&access_token=[redacted]',
    );
    expect(redactUrl('/demo-salon')).toBe('/demo-salon');
  });

  it('redacts the token segment of the calendar feed and unsubscribe paths, whatever follows it', () => {
    const token = 'n3dbd7iyh6abcdefghijgs4hzuntz234';
    expect(redactUrl(`/calendar/${token}.ics`)).toBe('/calendar/[redacted].ics');
    expect(redactUrl(`/calendar/${token}`)).toBe('/calendar/[redacted]');
    expect(redactUrl(`/calendar/${token}.ics?token=${token}`)).toBe('/calendar/[redacted].ics?token=[redacted]');
    expect(redactUrl(`/unsubscribe/${token}`)).toBe('/unsubscribe/[redacted]');
    expect(redactUrl(`/unsubscribe/${token}/?utm=mail#top`)).toBe('/unsubscribe/[redacted]/?utm=mail#top');
    // Logged whether or not a route matched: other spellings of the same path lose the token too.
    expect(redactUrl(`//Calendar/${token}.ics`)).toBe('//Calendar/[redacted].ics');
    expect(redactUrl(`/UNSUBSCRIBE/${token}`)).toBe('/UNSUBSCRIBE/[redacted]');
    // Paths that merely look alike keep their segments.
    expect(redactUrl('/calendars/demo')).toBe('/calendars/demo');
    expect(redactUrl('/demo-salon/calendar/x')).toBe('/demo-salon/calendar/x');
  });

  it("hides the parameter of every path with one, the server's routes and the client's screens", async () => {
    const { app } = await serverLoggingTo();
    await app.ready();
    const serverPaths = [...app.printRoutes({ commonPrefix: false }).matchAll(/(\/\S*:\S*)/g)].map((m) => m[1]!);
    await app.close();
    // tRPC's parameter is the procedure's name, never a secret.
    // The client's screens with a parameter, from the generated route tree; /{slug} is public.
    const routeTree = readFileSync(path.join(PROJECT_ROOT, 'client', 'routeTree.gen.ts'), 'utf8');
    const clientPaths = new Set([...routeTree.matchAll(/'(\/[^']*\$[^']*)'/g)].map((m) => m[1]!));
    clientPaths.delete('/$slug');
    const secretPaths = [...serverPaths, ...clientPaths].filter((p) => p !== '/trpc/:path');
    expect(secretPaths).toEqual(['/calendar/:file', '/unsubscribe/:token', '/unsubscribe/$token']);
    for (const path of secretPaths) {
      const url = path.replace(/[:$][^/]+/g, 'secretsegment234');
      expect(redactUrl(url)).not.toContain('secretsegment234');
      expect(redactUrl(`${url}.ics?x=1`)).not.toContain('secretsegment234');
    }
  });

  it('redacts a tRPC query input that carries a token, and only that', () => {
    const input = encodeURIComponent(JSON.stringify({ json: { token: 'resetsecret' } }));
    expect(redactUrl(`/trpc/auth.checkResetToken?input=${input}`)).toBe('/trpc/auth.checkResetToken?input=[redacted]');
    const batch = encodeURIComponent(JSON.stringify({ 0: { json: { token: 'resetsecret' } } }));
    expect(redactUrl(`/trpc/auth.checkResetToken?batch=1&input=${batch}`)).toBe(
      '/trpc/auth.checkResetToken?batch=1&input=[redacted]',
    );
    const slug = encodeURIComponent(JSON.stringify({ json: { slug: 'demo-salon' } }));
    expect(redactUrl(`/trpc/businesses.bySlug?input=${slug}`)).toBe(`/trpc/businesses.bySlug?input=${slug}`);
    // An email address (the check-email page asks after its sign-up email every 15 s) is never logged.
    const email = encodeURIComponent(JSON.stringify({ 0: { json: { email: 'someone@example.com' } } }));
    expect(redactUrl(`/trpc/auth.signUpEmailStatus?batch=1&input=${email}`)).toBe(
      '/trpc/auth.signUpEmailStatus?batch=1&input=[redacted]',
    );
    // A customer's position or typed place (Discover) is never logged.
    for (const where of [{ latitude: 53.8, longitude: -1.55 }, { place: 'LS1 4AP' }]) {
      const search = encodeURIComponent(JSON.stringify({ 0: { json: { window: '2h', miles: 5, ...where } } }));
      expect(redactUrl(`/trpc/discovery.search?batch=1&input=${search}`)).toBe(
        '/trpc/discovery.search?batch=1&input=[redacted]',
      );
    }
  });

  it("redacts a page address's position and typed place, whatever the parameter's spelling", () => {
    expect(redactUrl('/discover?lat=53.48123&lng=-2.24456&miles=5')).toBe(
      '/discover?lat=[redacted]&lng=[redacted]&miles=5',
    );
    expect(redactUrl('/discover?window=today&place=LS1%204AP')).toBe('/discover?window=today&place=[redacted]');
    expect(redactUrl('/discover?pl%61ce=M1+1AE&LAT=53.4&longitude=-2.2')).toBe(
      '/discover?pl%61ce=[redacted]&LAT=[redacted]&longitude=[redacted]',
    );
    expect(redactUrl('/discover?category=hair&sort=soonest')).toBe('/discover?category=hair&sort=soonest');
  });

  it("never writes a page address's position or place into the request log", async () => {
    const { app, lines } = await serverLoggingTo();
    await app.inject({
      method: 'GET',
      url: '/discover?lat=53.48123&lng=-2.24456&map=1',
      headers: { accept: 'text/html' },
    });
    await app.inject({ method: 'GET', url: '/discover?place=M14%205RB', headers: { accept: 'text/html' } });
    await app.close();
    const log = lines.join('');
    expect(log).toContain('/discover?lat=[redacted]&lng=[redacted]&map=1');
    expect(log).toContain('/discover?place=[redacted]');
    for (const secret of ['53.48', '2.244', 'M14']) expect(log).not.toContain(secret);
  });

  it('never writes an email-link token or a session cookie into the request log', async () => {
    const { app, lines } = await serverLoggingTo();
    await app.inject({
      method: 'GET',
      url: '/auth-redirect?token=supersecrettoken',
      headers: { cookie: 'lastslot_session=sessionsecret', accept: 'text/html' },
    });
    await app.close();
    const log = lines.join('');
    expect(log).toContain('/auth-redirect?token=[redacted]');
    expect(log).not.toContain('supersecrettoken');
    expect(log).not.toContain('sessionsecret');
  });

  it('writes one line per request, on response: method, URL without tokens, status, time in ms', async () => {
    const { app, lines } = await serverLoggingTo();
    await app.inject({ method: 'GET', url: '/nowhere?token=secret1', headers: { accept: 'application/json' } });
    await app.inject({
      method: 'POST',
      url: '/trpc/nothing.here',
      payload: '{',
      headers: { 'content-type': 'application/json' },
    });
    await app.close();
    const records = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const requests = records.filter((r) => r.msg === 'request');
    expect(requests).toEqual([
      expect.objectContaining({ level: 30, method: 'GET', url: '/nowhere?token=[redacted]', statusCode: 404 }),
      expect.objectContaining({ level: 30, method: 'POST', url: '/trpc/nothing.here', statusCode: 404 }),
    ]);
    for (const r of requests) expect(r.responseTimeMs).toEqual(expect.any(Number));
    // Fastify's own pair of lines per request is gone.
    expect(records.filter((r) => r.msg === 'incoming request' || r.msg === 'request completed')).toEqual([]);
  });

  it('writes a lone line out without a flush or an exit (lines are written in batches, or after a moment)', async () => {
    // One short line is far below the batch size: it must reach stdout while the process runs on.
    const script = `
      import { createLogger } from './server/logger.ts';
      createLogger('info', false).info('lone line');
      setInterval(() => {}, 1000);`;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: PROJECT_ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      let out = '';
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          out += String(chunk);
          if (out.includes('"lone line"')) resolve();
        });
        child.once('exit', () => reject(new Error(`exited before writing the line: ${out}`)));
      });
      expect(JSON.parse(out.split('\n')[0]!)).toMatchObject({ msg: 'lone line' });
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('flushLogger writes out every buffered stdout line before it resolves', async () => {
    // A process logs a burst through the asynchronous stdout destination, awaits flushLogger and
    // is then SIGKILLed, which skips every exit hook: what arrives is what flushLogger wrote.
    const script = `
      import { createLogger, flushLogger } from './server/logger.ts';
      const logger = createLogger('info', false);
      for (let i = 0; i < 2000; i++) logger.info({ i }, 'burst');
      await flushLogger(logger);
      process.kill(process.pid, 'SIGKILL');`;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      { cwd: PROJECT_ROOT, maxBuffer: 16 * 1024 * 1024 },
    ).catch((err: { stdout?: string; signal?: string }) => {
      if (err.signal !== 'SIGKILL') throw err;
      return { stdout: err.stdout ?? '' };
    });
    const lines = stdout.split('\n').filter((l) => l.includes('"burst"'));
    expect(lines).toHaveLength(2000);
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ i: 1999, msg: 'burst' });
  });
});
