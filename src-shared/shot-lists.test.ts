import { describe, expect, it } from 'vitest';
import { CONCRETE_MODEL_IDS, MODELS, PURPOSE_IDS, RATIOS, RESOLUTIONS } from './catalog.ts';
import { SHOT_ADDITION_MAX, SHOT_NAME_MAX, SHOTS_MAX, ShotListInputSchema, type Shot } from './ipc/batch.ts';
import { marketplacePreset } from './marketplace-presets.ts';
import { checkShot, checkShotList, marketplaceOfShotList, presetById, presetShots, SHOT_LIST_PRESETS } from './shot-lists.ts';
import { findTextIntent } from './text-intent.ts';

function shot(fields: Partial<Shot> = {}): Shot {
  return { name: 'hero', purpose: 'main_white', model: 'nano-banana-2', ratio: '1:1', n: 1, promptAddition: '', ...fields };
}

describe('checkShot', () => {
  it('accepts every ratio and resolution a model offers, and the model default when none is set', () => {
    for (const model of CONCRETE_MODEL_IDS) {
      for (const ratio of MODELS[model].ratios) {
        expect(checkShot(shot({ model, ratio }))).toEqual({ ok: true });
        for (const resolution of MODELS[model].resolutions) expect(checkShot(shot({ model, ratio, resolution }))).toEqual({ ok: true });
      }
    }
  });

  it('refuses a ratio the model lacks, naming the shot and what the model offers', () => {
    expect(checkShot(shot({ name: 'tall', model: 'seedream-5-0-pro', ratio: '4:5' }))).toEqual({
      ok: false,
      code: 'shot_not_supported',
      params: { shot: 'tall', model: 'seedream-5-0-pro', reason: 'ratio', value: '4:5', allowed: ['1:1', '3:4', '16:9', '9:16'] },
    });
  });

  it('refuses a resolution the model lacks', () => {
    expect(checkShot(shot({ model: 'qwen-image-3.0-pro', resolution: '4K' }))).toEqual({
      ok: false,
      code: 'shot_not_supported',
      params: { shot: 'hero', model: 'qwen-image-3.0-pro', reason: 'resolution', value: '4K', allowed: ['1K', '2K'] },
    });
    expect(checkShot(shot({ model: 'flux-kontext-pro', resolution: '2K' }))).toMatchObject({ ok: false, params: { reason: 'resolution', allowed: ['1K'] } });
  });

  it('refuses a quality on a model that has none, and takes it on GPT models', () => {
    expect(checkShot(shot({ model: 'nano-banana-2', quality: 'high' }))).toEqual({
      ok: false,
      code: 'shot_not_supported',
      params: { shot: 'hero', model: 'nano-banana-2', reason: 'quality', value: 'high', allowed: [] },
    });
    expect(checkShot(shot({ model: 'gpt-image-2', quality: 'high' }))).toEqual({ ok: true });
    expect(checkShot(shot({ model: 'gpt-image-2.5', quality: 'low', resolution: '4K' }))).toEqual({ ok: true });
  });

  it('on auto, takes what both models auto can pick offer, and refuses a quality (nano-banana-2 would ignore it)', () => {
    for (const ratio of RATIOS) {
      for (const resolution of RESOLUTIONS) expect(checkShot(shot({ model: 'auto', ratio, resolution }))).toEqual({ ok: true });
    }
    expect(checkShot(shot({ model: 'auto', quality: 'medium' }))).toEqual({
      ok: false,
      code: 'shot_not_supported',
      params: { shot: 'hero', model: 'auto', reason: 'quality', value: 'medium', allowed: [] },
    });
  });

  it('takes flux-kontext-pro (edit only): products without a reference are the plan’s problem', () => {
    expect(checkShot(shot({ model: 'flux-kontext-pro', ratio: '4:5' }))).toEqual({ ok: true });
  });
});

describe('checkShotList', () => {
  it('refuses the first shot a model cannot honour, with its index', () => {
    const shots = [shot({ name: 'a' }), shot({ name: 'b', model: 'seedream-5-0-pro', resolution: '4K' }), shot({ name: 'c', quality: 'low' })];
    expect(checkShotList({ name: 'List', shots })).toEqual({
      ok: false,
      code: 'shot_not_supported',
      params: { index: 1, shot: 'b', model: 'seedream-5-0-pro', reason: 'resolution', value: '4K', allowed: ['1K', '2K'] },
    });
  });

  it('refuses a shot name already in the list, compared trimmed and case-insensitively', () => {
    const shots = [shot({ name: 'Hero' }), shot({ name: 'detail' }), shot({ name: ' hERO ' })];
    expect(checkShotList({ name: 'List', shots })).toEqual({ ok: false, code: 'shot_name_taken', params: { index: 2, name: 'hERO', firstIndex: 0 } });
  });

  it('accepts a list of distinct, supported shots', () => {
    expect(checkShotList({ name: 'List', shots: [shot({ name: 'a' }), shot({ name: 'b', model: 'gpt-image-2', quality: 'high' })] })).toEqual({ ok: true });
  });
});

describe('SHOT_LIST_PRESETS', () => {
  it('names the marketplace a list is made for, so its export defaults to that preset: Taobao/Tmall for the Chinese set', () => {
    expect(marketplaceOfShotList('sl_preset_cn_marketplace')).toBe('taobao-tmall-main');
    for (const id of ['sl_preset_marketplace_hero', 'sl_preset_ads', 'sl_preset_white_only', 'sl_mine']) expect(marketplaceOfShotList(id), id).toBeNull();
    for (const p of SHOT_LIST_PRESETS) if (p.marketplace) expect(marketplacePreset(p.marketplace), p.id).not.toBeNull();
  });

  it('has the four presets with fixed ids and names in both languages', () => {
    expect(SHOT_LIST_PRESETS.map((p) => p.id)).toEqual(['sl_preset_marketplace_hero', 'sl_preset_ads', 'sl_preset_white_only', 'sl_preset_cn_marketplace']);
    for (const p of SHOT_LIST_PRESETS) {
      expect(p.id).toBe(`sl_preset_${p.preset}`);
      expect(p.name.zh).not.toBe('');
      expect(p.name.en).not.toBe('');
    }
  });

  it.each(SHOT_LIST_PRESETS.map((p) => [p.id, p] as const))('%s passes checkShotList and the save schema', (_id, p) => {
    expect(checkShotList({ name: p.name.en, shots: p.shots })).toEqual({ ok: true });
    expect(ShotListInputSchema.safeParse({ name: p.name.zh, shots: p.shots }).success).toBe(true);
    expect(p.shots.length).toBeLessThanOrEqual(SHOTS_MAX);
    for (const s of p.shots) {
      expect(s.name).toMatch(/^[a-z0-9-]+$/);
      expect(s.name.length).toBeLessThanOrEqual(SHOT_NAME_MAX);
      expect(s.promptAddition.length).toBeGreaterThan(0);
      expect(s.promptAddition.length).toBeLessThanOrEqual(SHOT_ADDITION_MAX);
      expect(PURPOSE_IDS).toContain(s.purpose);
    }
  });

  it.each(SHOT_LIST_PRESETS.map((p) => [p.id, p] as const))('%s in Chinese: Chinese names and additions, the same shots otherwise, and still a valid list', (_id, p) => {
    const zh = presetShots(p, 'zh');
    expect(zh.map(({ name: _n, promptAddition: _a, ...rest }) => rest)).toEqual(p.shots.map(({ name: _n, promptAddition: _a, ...rest }) => rest));
    expect(checkShotList({ name: p.name.zh, shots: zh })).toEqual({ ok: true });
    expect(ShotListInputSchema.safeParse({ name: p.name.zh, shots: zh }).success).toBe(true);
    for (const s of zh) {
      expect(s.name).toMatch(/\p{Script=Han}/u);
      expect(s.name.length).toBeLessThanOrEqual(SHOT_NAME_MAX);
      expect(s.promptAddition).toMatch(/\p{Script=Han}/u);
      expect(s.promptAddition.length).toBeLessThanOrEqual(SHOT_ADDITION_MAX);
      expect([p.id, s.name, findTextIntent(s.promptAddition)]).toEqual([p.id, s.name, null]);
    }
    expect(presetShots(p, 'en')).toEqual(p.shots);
  });

  it('no prompt addition asks for text in the image, so auto’s choice follows the product’s prompt', () => {
    for (const p of SHOT_LIST_PRESETS) for (const s of p.shots) expect([p.id, s.name, findTextIntent(s.promptAddition)]).toEqual([p.id, s.name, null]);
  });

  it('marketplace hero: a 1:1 white hero, two different detail shots, a buyer show', () => {
    const shots = presetById('sl_preset_marketplace_hero')?.shots ?? [];
    expect(shots.map((s) => [s.purpose, s.ratio])).toEqual([
      ['main_white', '1:1'],
      ['detail', '1:1'],
      ['detail', '1:1'],
      ['buyer_show', '1:1'],
    ]);
    expect(shots[1]?.promptAddition).not.toBe(shots[2]?.promptAddition);
  });

  it('ads: wide and vertical shots only', () => {
    expect(new Set(presetById('sl_preset_ads')?.shots.map((s) => s.ratio))).toEqual(new Set(['16:9', '9:16']));
  });

  it('white only: main white and pure white, square', () => {
    expect(presetById('sl_preset_white_only')?.shots.map((s) => [s.purpose, s.ratio])).toEqual([
      ['main_white', '1:1'],
      ['pure_white', '1:1'],
    ]);
  });

  it('Chinese marketplaces: 1:1 white main image, 3:4 details, a buyer show', () => {
    expect(presetById('sl_preset_cn_marketplace')?.shots.map((s) => [s.purpose, s.ratio])).toEqual([
      ['main_white', '1:1'],
      ['detail', '3:4'],
      ['detail', '3:4'],
      ['buyer_show', '3:4'],
    ]);
  });

  it('presetById finds a preset by id and nothing else', () => {
    expect(presetById('sl_preset_ads')?.preset).toBe('ads');
    expect(presetById('ads')).toBeNull();
    expect(presetById('sl_x')).toBeNull();
  });
});
