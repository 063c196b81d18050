// Export file names: every template field, names every desktop file system takes, and no collisions.
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_EXPORT_TEMPLATE,
  MAX_STEM_BYTES,
  nameKey,
  parseTemplate,
  renderTemplate,
  sanitizeFileStem,
  slug,
  templateImage,
  templateValues,
  TEMPLATE_FIELDS,
  uniqueFileName,
  type TemplateImage,
} from './export-template.ts';

// 2026-03-07 08:05:09 in this computer's time zone (the fields are local dates, as the designer sees them).
const CREATED = new Date(2026, 2, 7, 8, 5, 9).getTime();

const IMAGE: TemplateImage = {
  id: 'img_AbCd1234',
  createdAt: CREATED,
  sessionTitle: '春季 新品: 杯子/碟子',
  model: 'gpt-image-2.5',
  purpose: 'main_image',
  ratio: '3:4',
  resolution: '2K',
  prompt: 'A white mug on walnut, morning light, "soft" shadows',
  rating: 4,
};

function name(template: string, image: TemplateImage = IMAGE, index = 1, total = 1): string {
  const parsed = parseTemplate(template);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problem));
  return renderTemplate(parsed.parts, templateValues(image, index, total));
}

describe('template fields', () => {
  it('fills every field', () => {
    expect(TEMPLATE_FIELDS).toEqual(['session', 'date', 'time', 'model', 'purpose', 'ratio', 'resolution', 'index', 'id', 'rating', 'prompt']);
    expect(name('{session}')).toBe('春季-新品-杯子-碟子');
    expect(name('{date}')).toBe('20260307');
    expect(name('{time}')).toBe('080509');
    expect(name('{model}')).toBe('gpt-image-2.5');
    expect(name('{purpose}')).toBe('main_image');
    expect(name('{ratio}')).toBe('3x4');
    expect(name('{resolution}')).toBe('2K');
    expect(name('{id}')).toBe('img_AbCd1234');
    expect(name('{rating}')).toBe('4');
    expect(name('{rating}', { ...IMAGE, rating: null })).toBe('0');
    expect(name('{prompt}')).toBe('A-white-mug-on-walnut-morning-li');
    expect(name(DEFAULT_EXPORT_TEMPLATE, IMAGE, 7, 120)).toBe('春季-新品-杯子-碟子_20260307_gpt-image-2.5_007');
  });

  it('pads the 1-based index to the size of the set', () => {
    expect(name('{index}', IMAGE, 1, 9)).toBe('1');
    expect(name('{index}', IMAGE, 3, 10)).toBe('03');
    expect(name('{index}', IMAGE, 42, 1000)).toBe('0042');
  });

  it('keeps literal text, and allows spaces inside the braces', () => {
    expect(name('shoot-{ index }-final', IMAGE, 2, 12)).toBe('shoot-02-final');
  });

  it('refuses an unknown field, naming it and the allowed ones', () => {
    expect(parseTemplate('{session}_{camera}')).toEqual({ ok: false, problem: { code: 'export_template_unknown_field', field: 'camera', allowed: TEMPLATE_FIELDS } });
    expect(parseTemplate('{}')).toMatchObject({ ok: false, problem: { code: 'export_template_unknown_field', field: '' } });
  });

  it('refuses unmatched braces with the position, and an empty template', () => {
    expect(parseTemplate('{session')).toEqual({ ok: false, problem: { code: 'export_template_syntax', at: 0 } });
    expect(parseTemplate('a}b')).toEqual({ ok: false, problem: { code: 'export_template_syntax', at: 1 } });
    expect(parseTemplate('{a{index}}')).toEqual({ ok: false, problem: { code: 'export_template_syntax', at: 0 } });
    expect(parseTemplate('   ')).toEqual({ ok: false, problem: { code: 'export_template_empty' } });
  });

  it('builds the facts from a turn: the model that ran, defaults for what the request left out', () => {
    const facts = templateImage(
      { id: 'img_1', createdAt: CREATED, model: 'nano-banana-2', prompt: 'p' },
      { request: { model: 'auto' }, estimate: { model: 'nano-banana-2', resolution: '1K' } },
      'API generation',
    );
    expect(facts).toEqual({ id: 'img_1', createdAt: CREATED, sessionTitle: 'API generation', model: 'nano-banana-2', purpose: 'free', ratio: '3:4', resolution: '1K', prompt: 'p', rating: null });
  });
});

describe('file names every desktop system takes', () => {
  it('replaces characters Windows forbids and control characters', () => {
    expect(sanitizeFileStem('a<b>c:d"e/f\\g|h?i*j')).toBe('a_b_c_d_e_f_g_h_i_j');
    expect(sanitizeFileStem('tab\there\nnew\u0000line\u007f')).toBe('tab_here_new_line_');
    // A literal slash in the template never makes a folder.
    expect(name('{session}/../{id}')).toBe('春季-新品-杯子-碟子_.._img_AbCd1234');
  });

  it('drops leading dots (hidden files, ..) and trailing dots and spaces (Windows strips them)', () => {
    expect(sanitizeFileStem('..hidden')).toBe('hidden');
    expect(sanitizeFileStem('name. . ')).toBe('name');
    expect(sanitizeFileStem('..')).toBe('image');
    expect(sanitizeFileStem('   ')).toBe('image');
  });

  it('prefixes Windows device names in any case, with or without an extension', () => {
    for (const reserved of ['CON', 'con', 'Prn', 'AUX', 'nul', 'COM1', 'com9', 'LPT1', 'lpt¹', 'NUL.tar']) {
      expect(sanitizeFileStem(reserved), reserved).toBe(`_${reserved}`);
    }
    for (const fine of ['CONSOLE', 'con_2', 'COM10', 'aux-shot', 'nullable']) expect(sanitizeFileStem(fine), fine).toBe(fine);
    expect(name('{purpose}', { ...IMAGE, purpose: 'con' })).toBe('_con');
  });

  it('cuts long names to the byte limit between characters (Chinese and emoji stay whole)', () => {
    const chinese = sanitizeFileStem('杯'.repeat(300));
    expect(new TextEncoder().encode(chinese).length).toBeLessThanOrEqual(MAX_STEM_BYTES);
    expect(chinese).toBe('杯'.repeat(Math.floor(MAX_STEM_BYTES / 3)));
    const emoji = sanitizeFileStem('\u{1F375}'.repeat(100));
    expect(emoji).toBe('\u{1F375}'.repeat(MAX_STEM_BYTES / 4));
    expect(sanitizeFileStem('x'.repeat(199) + '.....')).toBe('x'.repeat(199));
  });

  it('normalises to NFC (macOS stores decomposed names; comparisons must agree)', () => {
    expect(sanitizeFileStem('Cafe\u0301')).toBe('Caf\u00e9');
    expect(nameKey('CAFE\u0301.PNG')).toBe(nameKey('caf\u00e9.png'));
  });

  it('slugs titles: runs of punctuation and spaces become one dash, letters of any script stay', () => {
    expect(slug('  Summer — sale!! 2026  ')).toBe('Summer-sale-2026');
    expect(slug('夏季·促销')).toBe('夏季-促销');
    expect(slug('---')).toBe('');
    expect(name('{session}', { ...IMAGE, sessionTitle: '!!!' })).toBe('session');
  });
});

describe('collisions', () => {
  it('suffixes _2, _3… ignoring case, never reusing a taken name', () => {
    const taken = new Set([nameKey('Shot_1.PNG'), nameKey('shot_1_2.png')]);
    expect(uniqueFileName('shot_1', 'png', taken)).toBe('shot_1_3.png');
    expect(uniqueFileName('shot_1', 'png', taken)).toBe('shot_1_4.png');
    expect(uniqueFileName('shot_1', 'jpg', taken)).toBe('shot_1.jpg');
    expect(uniqueFileName('other', 'png', taken)).toBe('other.png');
    expect(taken.has('other.png')).toBe(true);
  });

  it('gives a set with one template and no {index} distinct names', () => {
    const taken = new Set<string>();
    const names = Array.from({ length: 5 }, () => uniqueFileName(name('{session}_{date}'), 'webp', taken));
    expect(new Set(names).size).toBe(5);
    expect(names[4]).toBe('春季-新品-杯子-碟子_20260307_5.webp');
  });
});
