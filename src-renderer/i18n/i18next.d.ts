// t() keys are checked against the English resources, so a missing or mistyped key fails type-checking.
import 'i18next';
import type { Resources } from './locales/en.ts';

declare module 'i18next' {
  interface CustomTypeOptions {
    resources: { translation: Resources };
  }
}
