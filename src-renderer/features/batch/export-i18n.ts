// The marketplace export dialog's own words (sizes per shot), in both UI languages: a namespace beside
// batch/i18n.ts so the dialog's texts travel with it.
import { defineTextNamespace } from '../../i18n/text.ts';

export const exportText = defineTextNamespace('batchExport', {
  en: {
    shotSizes: 'Size per shot',
    shotSizesHint: 'Each shot’s images are written at the size its shape takes under this preset.',
    padded: 'padded with white bars (no size for this shape)',
  },
  zh: {
    shotSizes: '各镜头尺寸',
    shotSizesHint: '每个镜头的图片按其比例在此预设下的尺寸导出。',
    padded: '加白边（此比例无对应尺寸）',
  },
});
