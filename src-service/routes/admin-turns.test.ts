/* eslint-disable @typescript-eslint/no-explicit-any -- tests read response bodies field by field */
// GET /admin/accounts/:id/turns (docs/local-service.md) and the X-Client-Turn-Id it reports, over real HTTP.
import { describe, expect, it } from 'vitest';
import { useTestService } from '../test-support.ts';

const svc = useTestService();

describe('GET /admin/accounts/:id/turns', () => {
  it('lists the turns since a moment, oldest first, with outcome, charge, reservation, warnings, client id and live images', async () => {
    const { id, key } = await svc.account({ credits: 1000 });
    const since = (await svc.admin('GET', '/admin/clock')).body.now;
    const gen = (body: unknown, headers: Record<string, string> = {}) => svc.api('/api/v1/generate', { key, body, headers });

    const ok = await gen({ prompt: 'a bottle', n: 2, resolution: '1K', model: 'nano-banana-2' }, { 'X-Client-Turn-Id': 'lt_AbCdE12345' });
    expect(ok.status).toBe(200);
    // Not the documented shape: ignored, never an error (a real service ignores unknown headers).
    const ignored = await gen({ prompt: 'a jar', resolution: '1K', model: 'nano-banana-2' }, { 'X-Client-Turn-Id': 'lt_short' });
    expect(ignored.status).toBe(200);
    await svc.admin('PUT', '/admin/faults', { generate: { partial: { count: 1, produce: 1 } } });
    const partial = await gen({ prompt: 'a cup', n: 2, resolution: '1K', model: 'nano-banana-2' }, { 'X-Client-Turn-Id': 'lt_Partial001' });
    expect(partial.status).toBe(200);
    await svc.admin('PUT', '/admin/faults', { generate: { fail: 1 } });
    const failed = await gen({ prompt: 'a pot', resolution: '1K', model: 'nano-banana-2' }, { 'X-Client-Turn-Id': 'lt_Failed0001' });
    expect(failed.status).toBe(500);
    expect((await svc.admin('DELETE', `/admin/images/${ok.body.images[0].id}`)).status).toBe(204);

    await svc.admin('PUT', '/admin/faults', { generate: { latency_ms: 1_500 } });
    const running = gen({ prompt: 'slow', resolution: '1K', model: 'nano-banana-2' }, { 'X-Client-Turn-Id': 'lt_Running001' });
    let listed: any[] = [];
    for (let i = 0; i < 100 && listed.length < 5; i++) {
      listed = (await svc.admin('GET', `/admin/accounts/${id}/turns?since=${since}`)).body.turns;
      if (listed.length < 5) await new Promise((r) => setTimeout(r, 50));
    }
    await svc.admin('PUT', '/admin/faults', { generate: { latency_ms: 0 } });

    expect(listed.map((t) => t.turn_id)).toEqual([ok.body.turn_id, ignored.body.turn_id, partial.body.turn_id, expect.any(String), expect.any(String)]);
    const [a, b, c, d, e] = listed;
    expect(a).toEqual({
      turn_id: ok.body.turn_id,
      session_id: ok.body.session_id,
      client_turn_id: 'lt_AbCdE12345',
      status: 'succeeded',
      credits_charged: 24,
      reserved: 0,
      warnings: [],
      created_at: expect.any(Number),
      finished_at: expect.any(Number),
      // the deleted image is left out
      images: [ok.body.images[1]],
    });
    expect(a.created_at).toBeGreaterThanOrEqual(since);
    expect(b).toMatchObject({ client_turn_id: null, status: 'succeeded', credits_charged: 12, images: ignored.body.images });
    expect(c).toMatchObject({ client_turn_id: 'lt_Partial001', status: 'succeeded', credits_charged: 12, warnings: partial.body.warnings });
    expect(c.warnings.map((w: any) => w.feature)).toEqual(['n']);
    expect(d).toMatchObject({ client_turn_id: 'lt_Failed0001', status: 'failed', credits_charged: 0, reserved: 0, images: [] });
    expect(e).toMatchObject({ client_turn_id: 'lt_Running001', status: 'running', credits_charged: null, reserved: 12, finished_at: null, images: [] });

    // A later `since` leaves the earlier turns out.
    const later = await svc.admin('GET', `/admin/accounts/${id}/turns?since=${since + 3600}`);
    expect(later).toMatchObject({ status: 200, body: { turns: [] } });
    expect((await running).status).toBe(200);
    const settled = (await svc.admin('GET', `/admin/accounts/${id}/turns?since=${since}`)).body.turns[4];
    expect(settled).toMatchObject({ status: 'succeeded', credits_charged: 12, reserved: 0 });
  });

  it('needs since (invalid_request naming it) and a known account (404 not_found)', async () => {
    const { id } = await svc.account();
    for (const query of ['', '?since=', '?since=yesterday', '?since=-5', '?since=1.5']) {
      const res = await svc.admin('GET', `/admin/accounts/${id}/turns${query}`);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('invalid_request');
      expect(res.body.error.message).toContain('since');
    }
    const unknown = await svc.admin('GET', '/admin/accounts/acc_nobody0000/turns?since=0');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('not_found');
    const noToken = await fetch(`${svc.baseUrl}/admin/accounts/${id}/turns?since=0`);
    expect(noToken.status).toBe(401);
  });
});
