// Closing or reloading the window with unsaved work asks first (docs/main-process.md "Closing the window"). The
// renderer's leave guard alone knows what is unsaved and holds the unload through `beforeunload`; Electron then
// emits `will-prevent-unload` and window.ts asks with this box: leave without saving, or stay (the default, and
// Escape). A plain function, so its texts and answers can be checked without Electron.
import type { MessageBoxSyncOptions } from 'electron';
import type { Language } from '../../src-shared/language.ts';

type Words = Record<'title' | 'message' | 'detail' | 'leave' | 'stay', string>;

export const LEAVE_UNSAVED_TEXT: Record<Language, Words> = {
  zh: {
    title: '有未保存的修改',
    message: '有未保存的修改。不保存就离开吗？',
    detail: '离开后，这些修改会丢失。留在此页可以先保存。',
    leave: '不保存并离开',
    stay: '留在此页',
  },
  en: {
    title: 'Unsaved edits',
    message: 'Some edits are not saved. Leave without saving them?',
    detail: 'Leaving loses these edits. Stay to save them first.',
    leave: 'Leave without saving',
    stay: 'Stay',
  },
};

const LEAVE = 0;
const STAY = 1;

/** The native question in the UI language; Stay is the default and what Escape answers. */
export function leaveUnsavedBox(language: Language): MessageBoxSyncOptions {
  const words = LEAVE_UNSAVED_TEXT[language];
  return {
    type: 'warning',
    title: words.title,
    message: words.message,
    detail: words.detail,
    buttons: [words.leave, words.stay],
    defaultId: STAY,
    cancelId: STAY,
    // Windows would otherwise draw "Leave without saving" as a command link, unlike every other button.
    noLink: true,
  };
}

/** Whether the box's answer (the index of the button) lets the unload go on. */
export function choseToLeave(answer: number): boolean {
  return answer === LEAVE;
}
