import { describe, expect, it } from 'vitest';
import { i18next, i18nLanguage, onLanguageChange } from './index.ts';
import { appText, defineTextNamespace, templated, textIn } from './text.ts';

const testText = defineTextNamespace('text-test', {
  en: { hello: 'Hello {{name}}', twice: '{{a}} and {{b}}, {{a}} again', plain: 'No values', images_one: '{{count}} image', images_other: '{{count}} images', nested: { deep: 'deep' } },
  zh: { hello: '你好 {{name}}', twice: '{{a}} 和 {{b}}，又是 {{a}}', plain: '无值', images_one: '{{count}} 张图片', images_other: '{{count}} 张图片', nested: { deep: '深' } },
});

describe('text namespaces', () => {
  it('answers a key in each UI language, with its values filled in', () => {
    expect(textIn(testText, 'en')('hello', { name: 'Ann' })).toBe('Hello Ann');
    expect(textIn(testText, 'zh-CN')('hello', { name: 'Ann' })).toBe('你好 Ann');
    expect(textIn(testText, 'zh-CN')('nested.deep')).toBe('深');
  });

  it('picks the plural form from count, asked for by the key without its suffix', () => {
    expect(textIn(testText, 'en')('images', { count: 1 })).toBe('1 image');
    expect(textIn(testText, 'en')('images', { count: 3 })).toBe('3 images');
    expect(textIn(testText, 'zh-CN')('images', { count: 3 })).toBe('3 张图片');
  });

  it('keeps the first tables when a namespace name is defined again', () => {
    defineTextNamespace('text-test', {
      en: { hello: 'Other', twice: '', plain: '', images_one: '', images_other: '', nested: { deep: '' } },
      zh: { hello: '其他', twice: '', plain: '', images_one: '', images_other: '', nested: { deep: '' } },
    });
    expect(textIn(testText, 'en')('hello', { name: 'Ann' })).toBe('Hello Ann');
  });

  it('reads the app’s shared resources as the namespace appText', () => {
    expect(textIn(appText, 'en')('common.copy')).toBe('Copy');
    expect(textIn(appText, 'zh-CN')('common.copy')).toBe('复制');
  });

  it('fills a text from its template as t() does, value after value, in each language (templated)', () => {
    for (const lng of ['en', 'zh-CN']) {
      const t = textIn(testText, lng);
      const fast = templated(t);
      for (const [a, b] of [['x', 'y'], ['1', '2'], ['', 'long value with {{braces}}']]) expect(fast('twice', { a, b })).toBe(t('twice', { a, b }));
      expect(fast('hello', { name: 'Ann' })).toBe(t('hello', { name: 'Ann' }));
      expect(fast('hello', { name: 7 })).toBe(t('hello', { name: 7 }));
      expect(fast('plain')).toBe(t('plain'));
      // Plurals are t()'s: the form depends on the count, not only its place.
      expect(fast('images', { count: 1 })).toBe(t('images', { count: 1 }));
      expect(fast('images', { count: 3 })).toBe(t('images', { count: 3 }));
    }
    expect(templated(textIn(testText, 'en'))('twice', { a: 'x', b: 'y' })).toBe('x and y, x again');
  });

  it('tells every listener of a language change, and none once it stopped listening (useI18nLanguage)', async () => {
    const heard: string[] = [];
    const stop = onLanguageChange(() => heard.push(i18nLanguage()));
    const other = onLanguageChange(() => heard.push(`other ${i18nLanguage()}`));
    const was = i18nLanguage();
    await i18next.changeLanguage(was === 'en' ? 'zh-CN' : 'en');
    stop();
    await i18next.changeLanguage(was);
    other();
    const first = was === 'en' ? 'zh-CN' : 'en';
    expect(heard).toEqual([first, `other ${first}`, `other ${was}`]);
  });
});
