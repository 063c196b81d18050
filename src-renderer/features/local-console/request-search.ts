// The request list's search box: one text, read as the filter it can only mean (a request id, a status, a route or
// an error code), so the user types what they have in hand (the id on an error card, "500", "generate").
import { REQUEST_ROUTES, type RequestRoute } from '../../../src-shared/limits.ts';
import type { MethodInputOf } from '../../lib/ipc-types.ts';

export type RequestFilter = MethodInputOf<'localRequests'>;

const REQUEST_ID = /^req_[A-Za-z0-9]{20}$/;
const STATUS = /^[1-5]\d\d$/;
const CODE = /^[a-z_]{1,64}$/;

function isRoute(text: string): text is RequestRoute {
  return (REQUEST_ROUTES as readonly string[]).includes(text);
}

/** The filter a search text stands for; {} for nothing typed, null when it can match no request. */
export function filterOfSearch(text: string): RequestFilter | null {
  const search = text.trim();
  if (search === '') return {};
  if (REQUEST_ID.test(search)) return { requestId: search };
  if (STATUS.test(search)) return { status: Number(search) };
  if (isRoute(search)) return { route: search };
  if (CODE.test(search)) return { code: search };
  return null;
}
