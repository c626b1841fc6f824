// The Content-Security-Policy of every page: scripts only with this request's nonce
// ('strict-dynamic' lets Next.js's own scripts load their chunks), nothing from other
// origins, no plugins, no framing. Styles allow inline because React sets style
// attributes, which nonces cannot cover; scripts never do.

export function contentSecurityPolicy(nonce: string, opts: { dev?: boolean } = {}): string {
  return [
    `default-src 'self'`,
    // development needs eval for React's debugging and hot reload
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${opts.dev ? ` 'unsafe-eval'` : ''}`,
    `style-src 'self' 'unsafe-inline'`,
    `img-src 'self' blob: data:`,
    `font-src 'self' data:`,
    `connect-src 'self'${opts.dev ? ' ws: wss:' : ''}`,
    `object-src 'none'`,
    `base-uri 'self'`,
    `frame-ancestors 'none'`,
  ].join('; ');
}

/** 128 random bits, base64: unguessable and fresh per request. */
export function newNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes));
}
