import { describe, expect, it } from 'vitest';
import { filterOfSearch } from './request-search.ts';

describe('the request list search', () => {
  it('reads a request id, a status, a route or an error code, and refuses what can match nothing', () => {
    expect(filterOfSearch('  ')).toEqual({});
    expect(filterOfSearch(' req_AbCdEfGhIjKlMnOpQrSt ')).toEqual({ requestId: 'req_AbCdEfGhIjKlMnOpQrSt' });
    expect(filterOfSearch('500')).toEqual({ status: 500 });
    expect(filterOfSearch('generate')).toEqual({ route: 'generate' });
    expect(filterOfSearch('insufficient_credits')).toEqual({ code: 'insufficient_credits' });
    expect(filterOfSearch('req_short')).toEqual({ code: 'req_short' });
    expect(filterOfSearch('42')).toBeNull();
    expect(filterOfSearch('GET /api')).toBeNull();
  });
});
