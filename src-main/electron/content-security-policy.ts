// The renderer's Content-Security-Policy, sent as a header by both hosts (the Electron session and the browser
// harness) on top of the <meta> in src-renderer/index.html. Runtime-free, so the harness can import it too.
// Images come only through the app's protocol (DESIGN.md §2 rule 5); scripts only from the bundle.
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "img-src 'self' studio-image: data: blob:",
  "connect-src 'self' ws://127.0.0.1:* http://127.0.0.1:*",
  "style-src 'self' 'unsafe-inline'",
  "script-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');
