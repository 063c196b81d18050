// The local service's admin API (DESIGN.md §4), called with its admin token. Only main holds the token.
import { ErrorBodySchema } from '../../src-shared/api.ts';
import { headerValue, NetworkError, sendRequest } from '../api/http.ts';
import { StudioError } from '../core/errors.ts';

export class AdminClient {
  readonly baseUrl: string;
  private readonly adminToken: string;

  constructor(baseUrl: string, adminToken: string) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
    this.adminToken = adminToken;
  }

  /** Calls the admin API; a failure becomes a StudioError carrying the service's code (and `reason`). */
  async request<T = unknown>(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
    const url = new URL(path.replace(/^\//, ''), `${this.baseUrl}/`);
    const allHeaders: Record<string, string> = { authorization: `Bearer ${this.adminToken}`, accept: 'application/json', ...headers };
    if (body !== undefined) allHeaders['content-type'] = 'application/json';
    let response;
    try {
      response = await sendRequest(url, { method, headers: allHeaders, body: body === undefined ? undefined : JSON.stringify(body), timeoutMs: 30_000 });
    } catch (error) {
      const e = error instanceof NetworkError ? error : new NetworkError('dropped', String(error));
      throw new StudioError('service_unreachable', `The local service did not answer (${e.message}).`);
    }
    const text = response.body.toString('utf8');
    if (response.status >= 200 && response.status < 300) {
      return (text === '' ? null : JSON.parse(text)) as T;
    }
    let parsed: ReturnType<typeof ErrorBodySchema.safeParse> | null;
    try {
      parsed = ErrorBodySchema.safeParse(JSON.parse(text));
    } catch {
      parsed = null;
    }
    const requestId = headerValue(response.headers, 'x-request-id') ?? undefined;
    if (parsed?.success) {
      const e = parsed.data.error;
      throw new StudioError(e.code, e.message, { status: response.status, requestId: e.request_id || requestId, ...(e.reason ? { details: { reason: e.reason } } : {}) });
    }
    throw new StudioError('service_error', text.slice(0, 300) || `HTTP ${response.status}`, { status: response.status, ...(requestId ? { requestId } : {}) });
  }
}
