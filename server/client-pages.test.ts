import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  acceptsHtml,
  businessPageHead,
  classifyPagePath,
  CLIENT_PATHS,
  deferredAppShell,
  DEVELOPMENT_CLIENT_PATHS,
  etagMatches,
  etagOf,
  renderShell,
} from './client-pages';

/** The full paths of the client's route tree (client/routeTree.gen.ts), without /{slug}. */
function routeTreePaths(): string[] {
  const source = readFileSync(new URL('../client/routeTree.gen.ts', import.meta.url), 'utf8');
  const body = /export interface FileRoutesByFullPath \{([^}]*)\}/.exec(source)?.[1] ?? '';
  return [...body.matchAll(/'([^']+)':/g)]
    .map((m) => m[1]!)
    .filter((p) => p !== '/$slug')
    .map((p) => (p.length > 1 && p.endsWith('/') ? p.slice(0, -1) : p));
}

describe('CLIENT_PATHS', () => {
  it("lists exactly the client's routes (a new screen must be added here, or the server answers it 404)", () => {
    const paths = routeTreePaths();
    expect(paths.length).toBeGreaterThan(10);
    expect(new Set(paths)).toEqual(new Set([...CLIENT_PATHS, ...DEVELOPMENT_CLIENT_PATHS]));
  });
});

describe('classifyPagePath', () => {
  const dev = { production: false };
  it('knows the landing page and the screens, with or without a trailing slash or a query', () => {
    for (const url of ['/', '/?utm_source=flyer']) expect(classifyPagePath(url, dev), url).toEqual({ kind: 'landing' });
    for (const url of [
      '/login',
      '/login/',
      '/settings?tab=hours',
      '/dashboard/customer/settings',
      '/dev/mailbox',
      '/unsubscribe/abc234',
    ]) {
      expect(classifyPagePath(url, dev), url).toEqual({ kind: 'screen' });
    }
    expect(classifyPagePath('/dev/mailbox', { production: true })).toEqual({ kind: 'not-found' });
  });

  it('reads a slug-shaped segment as a business page, lower-cased', () => {
    expect(classifyPagePath('/demo-salon', dev)).toEqual({ kind: 'business', slug: 'demo-salon' });
    expect(classifyPagePath('/demo-salon/?utm=qr', dev)).toEqual({ kind: 'business', slug: 'demo-salon' });
  });

  it('sends a slug typed with capitals to its lower-case address, query kept', () => {
    expect(classifyPagePath('/Demo-Salon', dev)).toEqual({ kind: 'redirect', location: '/demo-salon' });
    expect(classifyPagePath('/DEMO-SALON/?ref=qr&a=?b', dev)).toEqual({
      kind: 'redirect',
      location: '/demo-salon?ref=qr&a=?b',
    });
    expect(classifyPagePath('/Pricing', dev)).toEqual({ kind: 'not-found' });
  });

  it('sends reserved words, what a slug cannot be and longer paths to the 404 page', () => {
    for (const url of [
      '/admin',
      '/Pricing',
      '/ab',
      '/no_such',
      '/caf%C3%A9',
      `/${'x'.repeat(51)}`,
      '/a/b',
      '/login/x',
    ]) {
      expect(classifyPagePath(url, dev), url).toEqual({ kind: 'not-found' });
    }
  });
});

describe('renderShell', () => {
  const shell = '<html><body><div id="root"></div></body></html>';
  it('puts the data before </body> in a JSON script element, with every < escaped', () => {
    const html = renderShell(shell, { slug: 'x-y', data: { json: { name: '</script><b>' } } });
    expect(html).toBe(
      '<html><body><div id="root"></div><script type="application/json" id="public-page-data">' +
        '{"slug":"x-y","data":{"json":{"name":"\\u003c/script>\\u003cb>"}}}</script></body></html>',
    );
    const json = /<script[^>]*>(.*)<\/script>/.exec(html)![1]!;
    expect(JSON.parse(json)).toEqual({ slug: 'x-y', data: { json: { name: '</script><b>' } } });
  });

  it('leaves the shell alone without data', () => {
    expect(renderShell(shell)).toBe(shell);
  });

  // The head as index.html writes it (a meta may span lines).
  const page = [
    '<html><head>',
    '<meta\n      name="description"\n      content="Generic text."\n    />',
    '<meta property="og:title" content="LastSlot" />',
    '<meta property="og:description" content="Generic text." />',
    '<title>LastSlot</title>',
    '</head><body></body></html>',
  ].join('\n');
  const contentOf = (html: string, name: string) =>
    new RegExp(`(?:name|property)="${name}"\\s+content="([^"]*)"`).exec(html)?.[1];

  it("writes the page's title and description into the head, HTML-escaped", () => {
    const html = renderShell(page, undefined, {
      title: 'Cuts & "Co" <b> | LastSlot',
      description: 'Fades & <i>more</i>',
    });
    expect(/<title>(.*)<\/title>/.exec(html)?.[1]).toBe('Cuts &amp; &quot;Co&quot; &lt;b&gt; | LastSlot');
    expect(contentOf(html, 'og:title')).toBe('Cuts &amp; &quot;Co&quot; &lt;b&gt; | LastSlot');
    expect(contentOf(html, 'description')).toBe('Fades &amp; &lt;i&gt;more&lt;/i&gt;');
    expect(contentOf(html, 'og:description')).toBe('Fades &amp; &lt;i&gt;more&lt;/i&gt;');
    expect(html).not.toContain('<b>');
  });

  it('adds the canonical link and og:url before </head>, escaped', () => {
    const html = renderShell(page, undefined, { title: 'Cuts | LastSlot', url: 'https://x.example/cuts?a=1&b="2"' });
    expect(html).toContain(
      '<link rel="canonical" href="https://x.example/cuts?a=1&amp;b=&quot;2&quot;" />\n' +
        '    <meta property="og:url" content="https://x.example/cuts?a=1&amp;b=&quot;2&quot;" />\n  </head>',
    );
    expect(renderShell(page, undefined, { title: 'Cuts | LastSlot' })).not.toContain('canonical');
  });

  it("keeps the shell's description when the page has none", () => {
    const html = renderShell(page, undefined, { title: 'Cuts | LastSlot' });
    expect(contentOf(html, 'og:title')).toBe('Cuts | LastSlot');
    expect(contentOf(html, 'description')).toBe('Generic text.');
    expect(contentOf(html, 'og:description')).toBe('Generic text.');
  });
});

describe('a server-rendered page (ADR 0075)', () => {
  const built = [
    '<html><head>',
    '    <script type="module" crossorigin src="/assets/index-A1.js"></script>',
    '    <link rel="modulepreload" crossorigin href="/assets/app-B2.js">',
    '    <link rel="stylesheet" crossorigin href="/assets/index-C3.css">',
    '</head><body><div id="root"></div></body></html>',
  ].join('\n');

  it("swaps the app's script for the boot script naming it, and drops module preloads", () => {
    const html = deferredAppShell(built, '/assets/boot-D4.js');
    expect(html).toContain(
      '<script type="module" crossorigin src="/assets/boot-D4.js" data-app-entry="/assets/index-A1.js"></script>',
    );
    expect(html).not.toContain('src="/assets/index-A1.js"');
    expect(html).not.toContain('modulepreload');
    expect(html).toContain('<link rel="stylesheet" crossorigin href="/assets/index-C3.css">');
  });

  it('refuses a shell without an app script', () => {
    expect(() => deferredAppShell('<html></html>', '/assets/boot.js')).toThrow(/no module script/);
  });

  it('puts the markup inside #root, taken as it is ($ patterns included)', () => {
    const html = renderShell(built, undefined, undefined, '<h1>Cuts $& Co $1</h1>');
    expect(html).toContain('<div id="root"><h1>Cuts $& Co $1</h1></div>');
  });
});

describe('businessPageHead', () => {
  const deps = { appOrigin: 'https://lastslot.example' };
  it("titles the page with the business's name, as the client does, and takes its description and address", () => {
    expect(businessPageHead({ id: 'b1', businessName: ' Cuts ', slug: 'cuts', description: ' Fades. ' }, deps)).toEqual(
      { title: 'Cuts | LastSlot', description: 'Fades.', url: 'https://lastslot.example/cuts' },
    );
    expect(businessPageHead({ id: 'b1', businessName: 'Cuts', slug: 'cuts', description: '  ' }, deps)).toEqual({
      title: 'Cuts | LastSlot',
      url: 'https://lastslot.example/cuts',
    });
  });

  it('titles the page on one line, without bidirectional controls, whatever name was stored', () => {
    const head = businessPageHead(
      { id: 'b1', businessName: 'Cuts\r\n\u202Eoc & Co\u2069', slug: 'cuts', description: null },
      deps,
    );
    expect(head?.title).toBe('Cuts oc & Co | LastSlot');
  });

  it("leaves the head alone for a business the page cannot show ('Invalid Business Data')", () => {
    expect(businessPageHead({ id: 'b1', businessName: ' ', slug: 'cuts', description: 'x' }, deps)).toBeUndefined();
    expect(businessPageHead({ id: '', businessName: 'Cuts', slug: 'cuts', description: 'x' }, deps)).toBeUndefined();
  });
});

describe('etagMatches', () => {
  it('matches the tag, its weak form, a list containing it and *', () => {
    const tag = etagOf('body');
    expect(etagOf('body')).toBe(tag);
    expect(etagOf('other')).not.toBe(tag);
    for (const header of [tag, `W/${tag}`, `"a", ${tag}`, '*']) expect(etagMatches(header, tag), header).toBe(true);
    for (const header of [undefined, '', '"a"', tag.slice(1)]) expect(etagMatches(header, tag), header).toBe(false);
  });
});

describe('acceptsHtml', () => {
  it('takes HTML when it is named, matched by a wildcard, or no Accept is sent', () => {
    for (const accept of [
      undefined,
      '*/*',
      'text/html',
      'text/*',
      'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
      'application/json, text/plain, */*',
    ]) {
      expect(acceptsHtml(accept), String(accept)).toBe(true);
    }
  });

  it('does not when HTML is refused or only other types are named', () => {
    for (const accept of ['', 'application/json', 'text/html;q=0, */*', 'image/png, text/plain']) {
      expect(acceptsHtml(accept), accept).toBe(false);
    }
  });
});
