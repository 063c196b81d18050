// spec §2.3: warnings name the request feature the vendor could not honor; details follow Accept-Language.
import type { Language } from './language.ts';

export type WarningType = 'unsupported' | 'downgraded';

export interface GenerationWarning {
  type: WarningType;
  feature: string;
  details: string;
}

export type WarningFacts =
  | { feature: 'n'; requested: number; produced: number }
  | { feature: 'resolution'; requested: string; native: string }
  | { feature: 'quality'; model: string; quality: string };

export function warningFor(facts: WarningFacts, language: Language): GenerationWarning {
  switch (facts.feature) {
    case 'n':
      return {
        type: 'downgraded',
        feature: 'n',
        details:
          language === 'en'
            ? `Asked for ${facts.requested} images, ${facts.produced} were produced; you were billed for ${facts.produced}.`
            : `请求 ${facts.requested} 张，实际生成 ${facts.produced} 张，只按 ${facts.produced} 张计费。`,
      };
    case 'resolution':
      return {
        type: 'downgraded',
        feature: 'resolution',
        details:
          language === 'en'
            ? `The vendor returned ${facts.native}; the image was upscaled locally to ${facts.requested}, so the detail is not native.`
            : `供应商返回的是 ${facts.native}，已在本地放大到 ${facts.requested}，细节并非原生。`,
      };
    case 'quality':
      return {
        type: 'unsupported',
        feature: 'quality',
        details:
          language === 'en'
            ? `${facts.model} does not support quality; "${facts.quality}" was ignored.`
            : `${facts.model} 不支持 quality 参数，已忽略 "${facts.quality}"。`,
      };
  }
}
