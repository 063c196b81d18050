import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../src-shared/language.ts';
import { choseToLeave, LEAVE_UNSAVED_TEXT, leaveUnsavedBox } from './leave-unsaved.ts';

describe('closing the window with unsaved work', () => {
  it('asks in the UI language: leave without saving, or stay', () => {
    expect(leaveUnsavedBox('en').buttons).toEqual(['Leave without saving', 'Stay']);
    expect(leaveUnsavedBox('zh').buttons).toEqual(['不保存并离开', '留在此页']);
    for (const language of LANGUAGES) {
      for (const words of Object.values(LEAVE_UNSAVED_TEXT[language])) expect(words.trim()).not.toBe('');
    }
  });

  it('stays by default and on Escape; only "leave without saving" lets the window go', () => {
    for (const language of LANGUAGES) {
      const box = leaveUnsavedBox(language);
      const stay = box.buttons!.indexOf(LEAVE_UNSAVED_TEXT[language].stay);
      const leave = box.buttons!.indexOf(LEAVE_UNSAVED_TEXT[language].leave);
      expect(box.defaultId).toBe(stay);
      expect(box.cancelId).toBe(stay);
      expect(choseToLeave(stay)).toBe(false);
      expect(choseToLeave(leave)).toBe(true);
    }
  });
});
