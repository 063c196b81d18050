// The viewer's and compare's own i18n namespace ("loupe"), registered with addResourceBundle so the app's
// shared resource files stay untouched by this feature. Keys are flat; `useLoupeT` type-checks them against
// the English table.
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { i18next } from '../../i18n/index.ts';

export const LOUPE_NS = 'loupe';

export const loupeEn = {
  position: '{{index}} / {{total}}',
  positionOutside: 'not in the current filter · {{total}} in it',
  positionLabel: 'Image {{index}} of {{total}} in the gallery’s current filter',
  stage: 'Image, {{zoom}}. Drag or Shift+arrow keys to pan, wheel or pinch to zoom.',
  zoomIn: 'Zoom in',
  zoomOut: 'Zoom out',
  zoomFit: 'Fit',
  zoomLevel: 'Zoom level',
  zoomBar: 'Zoom',
  culling: 'Rating and marks',
  rate: 'Rate {{count}} stars',
  rate_one: 'Rate {{count}} star',
  rating: 'Rating',
  clearRating: 'Clear rating',
  reject: 'Reject',
  rejected: 'Rejected',
  unreject: 'Not rejected',
  star: 'Star',
  starred: 'Starred',
  noRating: 'not rated',
  advance: 'Next image after a culling key',
  advanceHint: 'After 1–5, 0, X or S, show the next image (the same setting as the gallery’s “Advance after marking”)',
  meta: 'Details',
  prompt: 'Prompt',
  model: 'Model',
  modelAuto: '{{model}} (auto)',
  ratio: 'Ratio',
  ratioDefault: '{{ratio}} (default)',
  resolution: 'Resolution',
  pixels: '{{width}} × {{height}} px',
  quality: 'Quality',
  qualityNone: 'not used by this model',
  purpose: 'Purpose',
  purposeNone: 'none',
  count: 'Images asked (n)',
  countProduced: '{{n}} asked, {{produced}} produced',
  date: 'Created',
  session: 'Session',
  credits: 'Credits (this generation)',
  creditsValue: '{{charged}} charged · {{estimated}} estimated',
  creditsUnknown: 'not charged · {{estimated}} estimated',
  requestId: 'Request id',
  imageId: 'Image id',
  warnings: 'Warnings',
  noWarnings: 'none',
  boards: 'Boards',
  noBoards: 'Not on a board.',
  references: 'References used',
  usedBy: 'Used by',
  keysTitle: 'Keys',
  keyMove: 'previous / next',
  keyPan: 'pan',
  keyZoom: 'zoom',
  keyActual: 'fit ↔ 100%',
  keyRate: 'rate',
  keyClear: 'clear rating',
  keyReject: 'reject',
  keyStar: 'star',
  keyClose: 'close',
  compareTitle: 'Compare {{count}} images',
  compareHint: 'Zoom and pan move every image together.',
  compareDiff: 'What differs',
  compareSame: 'The requests are the same (model, ratio, resolution, quality, n, purpose, prompt and references).',
  comparePane: 'Image {{index}}',
  compareActive: 'Keys rate this image',
  diffReferences: 'References',
} as const;

export type LoupeKey = keyof typeof loupeEn;

export const loupeZh: Record<LoupeKey, string> = {
  position: '{{index}} / {{total}}',
  positionOutside: '不在当前筛选中 · 筛选共 {{total}} 张',
  positionLabel: '图库当前筛选中的第 {{index}} 张，共 {{total}} 张',
  stage: '图片，{{zoom}}。拖动或按 Shift+方向键平移，滚轮或双指缩放。',
  zoomIn: '放大',
  zoomOut: '缩小',
  zoomFit: '适合窗口',
  zoomLevel: '缩放比例',
  zoomBar: '缩放',
  culling: '评分与标记',
  rate: '评 {{count}} 星',
  rate_one: '评 {{count}} 星',
  rating: '评分',
  clearRating: '清除评分',
  reject: '淘汰',
  rejected: '已淘汰',
  unreject: '未淘汰',
  star: '收藏',
  starred: '已收藏',
  noRating: '未评分',
  advance: '按评分键后跳到下一张',
  advanceHint: '按 1–5、0、X 或 S 后显示下一张（与图库的“标记后跳到下一张”是同一设置）',
  meta: '详情',
  prompt: '提示词',
  model: '模型',
  modelAuto: '{{model}}（自动选择）',
  ratio: '比例',
  ratioDefault: '{{ratio}}（默认）',
  resolution: '分辨率',
  pixels: '{{width}} × {{height}} 像素',
  quality: '质量',
  qualityNone: '该模型不使用此项',
  purpose: '用途',
  purposeNone: '无',
  count: '请求张数 (n)',
  countProduced: '请求 {{n}} 张，生成 {{produced}} 张',
  date: '生成时间',
  session: '会话',
  credits: '积分（本次生成）',
  creditsValue: '实扣 {{charged}} · 预估 {{estimated}}',
  creditsUnknown: '未扣费 · 预估 {{estimated}}',
  requestId: '请求 ID',
  imageId: '图片 ID',
  warnings: '提示',
  noWarnings: '无',
  boards: '所在画板',
  noBoards: '不在任何画板上。',
  references: '使用的参考图',
  usedBy: '被以下生成引用',
  keysTitle: '快捷键',
  keyMove: '上一张 / 下一张',
  keyPan: '平移',
  keyZoom: '缩放',
  keyActual: '适合窗口 ↔ 100%',
  keyRate: '评分',
  keyClear: '清除评分',
  keyReject: '淘汰',
  keyStar: '收藏',
  keyClose: '关闭',
  compareTitle: '对比 {{count}} 张图片',
  compareHint: '缩放和平移会同步作用于所有图片。',
  compareDiff: '不同之处',
  compareSame: '这些请求的设置相同（模型、比例、分辨率、质量、张数、用途、提示词和参考图）。',
  comparePane: '图片 {{index}}',
  compareActive: '快捷键作用于这张图片',
  diffReferences: '参考图',
};

let registered = false;

export function registerLoupeI18n(): void {
  if (registered) return;
  registered = true;
  i18next.addResourceBundle('en', LOUPE_NS, loupeEn, true, true);
  i18next.addResourceBundle('zh-CN', LOUPE_NS, loupeZh, true, true);
}

registerLoupeI18n();

/** t() for the loupe namespace; re-renders on a language change like useTranslation. */
export function useLoupeT(): (key: LoupeKey, options?: Record<string, unknown>) => string {
  const { i18n } = useTranslation();
  const lng = i18n.language;
  return useCallback(
    (key: LoupeKey, options?: Record<string, unknown>) => {
      // The app's t() is typed against its own namespace only; ours is checked by LoupeKey instead.
      const translate = i18n.t as unknown as (k: string, o: Record<string, unknown>) => string;
      return translate(key, { ...options, ns: LOUPE_NS, lng });
    },
    [i18n, lng],
  );
}
