/**
 * Renders recorded exchanges as copy-pastable curl commands. Secrets never appear: the admin and
 * restricted tokens print as $CK_TOKEN / $CK_RESTRICTED_TOKEN; deliberately invalid tokens are shown.
 */
import type { Exchange } from './http.ts';

/** Single-quote a shell word. */
export function shellQuote(s: string): string {
  if (/^[A-Za-z0-9_./:=@%+,-]+$/.test(s)) return s;
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

export function toCurl(ex: Exchange): string {
  const parts = ['curl', '-sS', '-X', ex.method, shellQuote(ex.url)];
  if (ex.authLabel === 'admin') parts.push('-H', '"Authorization: Bearer $CK_TOKEN"');
  else if (ex.authLabel === 'restricted') parts.push('-H', '"Authorization: Bearer $CK_RESTRICTED_TOKEN"');
  else if (ex.authHeader !== undefined) parts.push('-H', shellQuote(`Authorization: ${ex.authHeader}`));
  else if (ex.authLabel !== 'none') parts.push('-H', shellQuote(`Authorization: <${ex.authLabel}>`));
  if (ex.contentType) parts.push('-H', shellQuote(`Content-Type: ${ex.contentType}`));
  for (const [name, value] of Object.entries(ex.requestHeaders ?? {})) parts.push('-H', shellQuote(`${name}: ${value}`));
  if (ex.requestBody !== undefined) parts.push('-d', shellQuote(ex.requestBody));
  return parts.join(' ');
}

/** One line summarising the response: status and a truncated body. */
export function responseSummary(ex: Exchange, max = 300): string {
  const body = ex.responseText.length > max ? `${ex.responseText.slice(0, max)}…` : ex.responseText;
  return `${ex.status}${body ? ` ${body.replace(/\s+/g, ' ')}` : ' (no body)'}`;
}
