// The marketplace export dialog's own words (sizes per shot, picks still missing), in both UI languages: a namespace beside
// batch/i18n.ts so the dialog's texts travel with it.
import { defineTextNamespace } from '../../i18n/text.ts';

export const exportText = defineTextNamespace('batchExport', {
  en: {
    shotSizes: 'Size per shot',
    shotSizesHint: 'Each shot’s images are written at the size its shape takes under this preset.',
    padded: 'padded with white bars (no size for this shape)',
    missingBefore_one: '{{count}} product × shot has no pick to export.',
    missingBefore_other: '{{count}} product × shots have no pick to export.',
    missingBeforeHint: 'Close this and pick them on the board, or export now: the manifest lists them.',
    missingAll: 'Show all {{count}}',
    missingFewer: 'Show fewer',
    everyShotPicked: 'Every product × shot has a pick.',
  },
  zh: {
    shotSizes: '各镜头尺寸',
    shotSizesHint: '每个镜头的图片按其比例在此预设下的尺寸导出。',
    padded: '加白边（此比例无对应尺寸）',
    missingBefore_one: '{{count}} 个商品 × 镜头还没有可导出的选用图。',
    missingBefore_other: '{{count}} 个商品 × 镜头还没有可导出的选用图。',
    missingBeforeHint: '可以关闭此窗口回到看板选图；现在导出的话，清单（manifest）会列出它们。',
    missingAll: '显示全部 {{count}} 个',
    missingFewer: '收起',
    everyShotPicked: '每个商品 × 镜头都已选好图。',
  },
});
