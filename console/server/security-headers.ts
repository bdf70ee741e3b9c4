import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/**
 * The headers a console with approve buttons needs on every answer (docs/console.md, "Security headers"): no other
 * site may frame it (a hidden Approve under a decoy is clickjacking), the browser runs only the console's own scripts
 * (a stored payload that reaches the page cannot load or inline one), MIME types are not sniffed, and the referrer
 * stays on the console. Served by @fastify/helmet, with a policy the built web app satisfies: its scripts and styles
 * are files under /assets, and inline styles are the error page's `<style>` and React's `style` attributes (the
 * virtualised rows), which `style-src 'unsafe-inline'` allows while scripts stay strictly 'self'. HSTS is sent always:
 * browsers ignore it over plain http (RFC 6797), so a loopback console keeps working; there is no
 * upgrade-insecure-requests, which would send a loopback console's own assets to https.
 */
export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        scriptSrcAttr: ["'none'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'same-origin' },
    strictTransportSecurity: { maxAge: 15_552_000, includeSubDomains: false },
  });
}
