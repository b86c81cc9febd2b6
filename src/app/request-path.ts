/**
 * What a request URL addresses, parsed in one place: its path without the query string, whether it
 * is an API call (`/api` or below, compared as express routes compare it: case-insensitively), and
 * for a call under `/api/v1` the collection it addresses (a kind's `collection`, src/kinds/:
 * `tables`, `services/databaseServices`, `dataQuality/testCases`…) and what follows it. Read by the
 * app's front door (src/app/app.ts) and the request log and journal (src/app/request-log.ts).
 */

export interface RequestPath {
  /** The URL up to its query string: `/api/v1/tables/name/a.b`. */
  path: string;
  /** `/api` or below. */
  api: boolean;
  /** The collection of a path under `/api/v1`: two segments for the grouped ones (`services/…`, `dataQuality/…`). */
  collection: string | undefined;
  /** The rest of the path after the collection (`/name/a.b`, `/{id}/followers`, or ``). */
  rest: string;
}

/** `/api/v1/<collection>`, where a collection under `services` or `dataQuality` has a second segment. */
const COLLECTION = /^\/api\/v1\/((?:services|dataQuality)\/[^/]+|[^/]+)(\/.*)?$/i;

const API = /^\/api(?:[/?]|$)/i;

/** Whether the URL is `/api` or below. */
export const isApiPath = (url: string): boolean => API.test(url);

/** The URL as the client sent it (`originalUrl`: before an express router cut its mount path). */
export const urlOf = (req: { url?: string; originalUrl?: string }): string => req.originalUrl ?? req.url ?? '/';

export function parseRequestPath(url: string): RequestPath {
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  const api = isApiPath(path);
  const match = api ? COLLECTION.exec(path) : null;
  return { path, api, collection: match?.[1], rest: match?.[2] ?? '' };
}
