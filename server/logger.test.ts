import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { buildServer } from './app';
import { createLogger, redactUrl } from './logger';
import type { AppDeps } from './trpc/context';

describe('logging', () => {
  it('redacts tokens in URLs', () => {
    expect(redactUrl('/auth-redirect?token=abc123&x=1')).toBe('/auth-redirect?token=[redacted]&x=1');
    expect(redactUrl('/reset-password?type=recovery&access_token=zzz')).toBe(
      '/reset-password?type=recovery&access_token=[redacted]',
    );
    expect(redactUrl('/demo-salon')).toBe('/demo-salon');
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
  });

  it('never writes an email-link token or a session cookie into the request log', async () => {
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
});
