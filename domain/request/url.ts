/**
 * Which URLs a user may store as a link, a sound or a map source: http(s) or relative ones only.
 * A stored `javascript:` URL runs script in whoever's console opens it, `data:` can carry a page or
 * a script, and `file:` reads the viewer's own disk; none has a place in a fleet console's settings.
 * Shared by the server's schemas (server/http/validation.ts, format `http-url`) and the console's forms.
 *
 * Browsers remove tabs and line breaks anywhere in a URL and trim leading control characters and
 * spaces before reading its scheme (`java\tscript:` is `javascript:`), so the rule does the same
 * before it looks; no URL API is used, so this runs without DOM or Node.
 */

/** The scheme a browser would read from `text`, lower-case, or undefined for a relative URL. */
export function urlScheme(text: string): string | undefined {
  // eslint-disable-next-line no-control-regex -- the control characters are what is being removed
  const cleaned = text.replace(/[\t\n\r]/g, '').replace(/^[\u0000-\u0020]+/, '');
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(cleaned);
  return m ? m[1]!.toLowerCase() : undefined;
}

/** True for an http: or https: URL, or a relative one (`/sounds/a.mp3`, `a.mp3`, `//host/a.mp3`). */
export function isHttpOrRelativeUrl(text: string): boolean {
  // eslint-disable-next-line no-control-regex -- a NUL or other control character has no place in a stored URL
  if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(text)) return false;
  const scheme = urlScheme(text);
  return scheme === undefined || scheme === 'http' || scheme === 'https';
}
