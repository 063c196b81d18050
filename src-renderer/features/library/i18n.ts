// The library's own i18n namespace ("library"): the gallery's grid and culling, the full-window library view
// and boards. Registered with addResourceBundle (as the inspector does), so these strings do not crowd the
// app's shared resource files; `useLibraryT` type-checks keys against the English table and zh must match it.
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { i18next } from '../../i18n/index.ts';

export const LIBRARY_NS = 'library';

export const libraryEn = {
  title: 'Library',
  sideLabel: 'Filters and boards',
  open: 'Library',
  openHint: 'Open the full-window library: the same images and filters, room to cull',
  close: 'Back to the studio',
  gridLabel: 'Images, {{count}} shown',
  thumbSize: 'Tile size',
  resize: 'Gallery width',
  resizeHint: 'Drag, or focus and use ← →, to resize the gallery',
  filterRating: 'Minimum rating',
  anyRating: 'Any rating',
  ratingAtLeast: '{{n}}★ and up',
  filterRejected: 'Rejected images',
  rejectsShown: 'Rejects shown',
  rejectsHidden: 'Hide rejects',
  rejectsOnly: 'Only rejects',
  clearFilters: 'Clear filters',
  moreFilters: 'Dates, save as smart board',
  datesSet: 'A date filter is set',
  rated: 'rated {{n}} of 5',
  rejected: 'rejected',
  starred: 'starred',
  reject: 'Reject (X)',
  unreject: 'Undo reject (X)',
  tileKeys: '1–5 rate · 0 clear · X reject · S star · B board · Enter open',
  advance: 'Auto-advance',
  advanceHint: 'After 1–5, 0, X or S on one image, move to the next one',
  keysTitle: 'Keys',
  keyRate: 'rate',
  keyClear: 'clear rating',
  keyReject: 'reject',
  keyStar: 'star',
  keyBoard: 'add to board',
  keyMove: 'move',
  keyOpen: 'open',
  keySelect: 'select',
  keysLabel: 'Keyboard shortcuts of the grid',
  marked_one: 'Marked {{count}} image',
  marked_other: 'Marked {{count}} images',
  boards: 'Boards',
  smartBoards: 'Smart boards',
  allImages: 'All images',
  boardCreate: 'New board',
  boardNew: 'New board…',
  boardName: 'Board name',
  boardNamePlaceholder: 'e.g. Homepage picks',
  create: 'Create',
  save: 'Save',
  cancel: 'Cancel',
  rename: 'Rename',
  renameBoard: 'Rename board {{name}}',
  deleteBoard: 'Delete board {{name}}',
  deleteConfirm: 'Delete “{{name}}”? Its images stay in the library.',
  delete: 'Delete',
  keep: 'Keep',
  boardImages_one: '{{count}} image',
  boardImages_other: '{{count}} images',
  noBoards: 'No boards yet: make one, then drag images onto it or press B.',
  boardHint: 'Click to view; drop images to add',
  boardAdd: 'Add to board…',
  boardRemove: 'Remove from board',
  pickerTitle_one: 'Add {{count}} image to a board',
  pickerTitle_other: 'Add {{count}} images to a board',
  pickerHint: '1–9 picks · Esc closes',
  added: 'Added to “{{name}}”',
  removed: 'Removed from “{{name}}”',
  viewingBoard: 'Board: {{name}}',
  viewingSmartBoard: 'Smart board: {{name}}',
  viewingSession: 'Session: {{title}}',
  showAll: 'Show all',
  smartSave: 'Save filters as…',
  smartName: 'Smart board name',
  smartNamePlaceholder: 'e.g. 4★ and up',
  smartEmpty: 'Save the current filters as a smart board to come back to them in one click.',
  deleteSmartBoard: 'Delete smart board {{name}}',
  nameTaken: 'A board already has this name.',
  onlySession: 'Only this session',
};

export type LibraryKey = keyof typeof libraryEn;

const libraryZh: Record<LibraryKey, string> = {
  title: '图片库',
  sideLabel: '筛选与画板',
  open: '图片库',
  openHint: '打开全窗口图片库：同样的图片和筛选，更大的空间来挑图',
  close: '返回工作台',
  gridLabel: '图片，显示 {{count}} 张',
  thumbSize: '缩略图大小',
  resize: '图库宽度',
  resizeHint: '拖动，或聚焦后按 ← → 调整图库宽度',
  filterRating: '最低评分',
  anyRating: '任意评分',
  ratingAtLeast: '{{n}}★ 及以上',
  filterRejected: '已淘汰的图片',
  rejectsShown: '显示淘汰',
  rejectsHidden: '隐藏淘汰',
  rejectsOnly: '只看淘汰',
  clearFilters: '清除筛选',
  moreFilters: '日期、保存为智能画板',
  datesSet: '已设置日期筛选',
  rated: '评分 {{n}}/5',
  rejected: '已淘汰',
  starred: '已加星',
  reject: '淘汰 (X)',
  unreject: '撤销淘汰 (X)',
  tileKeys: '1–5 评分 · 0 清除 · X 淘汰 · S 加星 · B 画板 · Enter 打开',
  advance: '自动下一张',
  advanceHint: '对单张图按 1–5、0、X 或 S 后，自动移到下一张',
  keysTitle: '快捷键',
  keyRate: '评分',
  keyClear: '清除评分',
  keyReject: '淘汰',
  keyStar: '加星',
  keyBoard: '加入画板',
  keyMove: '移动',
  keyOpen: '打开',
  keySelect: '选择',
  keysLabel: '图片网格的快捷键',
  marked_one: '已标记 {{count}} 张',
  marked_other: '已标记 {{count}} 张',
  boards: '画板',
  smartBoards: '智能画板',
  allImages: '全部图片',
  boardCreate: '新建画板',
  boardNew: '新建画板…',
  boardName: '画板名称',
  boardNamePlaceholder: '例如：首页候选',
  create: '创建',
  save: '保存',
  cancel: '取消',
  rename: '重命名',
  renameBoard: '重命名画板 {{name}}',
  deleteBoard: '删除画板 {{name}}',
  deleteConfirm: '删除“{{name}}”？其中的图片仍保留在图片库中。',
  delete: '删除',
  keep: '保留',
  boardImages_one: '{{count}} 张',
  boardImages_other: '{{count}} 张',
  noBoards: '还没有画板：新建一个，然后把图片拖上去或按 B。',
  boardHint: '点击查看；把图片拖到这里加入',
  boardAdd: '加入画板…',
  boardRemove: '从画板移除',
  pickerTitle_one: '把 {{count}} 张图片加入画板',
  pickerTitle_other: '把 {{count}} 张图片加入画板',
  pickerHint: '按 1–9 选择 · Esc 关闭',
  added: '已加入“{{name}}”',
  removed: '已从“{{name}}”移除',
  viewingBoard: '画板：{{name}}',
  viewingSmartBoard: '智能画板：{{name}}',
  viewingSession: '会话：{{title}}',
  showAll: '显示全部',
  smartSave: '将筛选保存为…',
  smartName: '智能画板名称',
  smartNamePlaceholder: '例如：4★ 及以上',
  smartEmpty: '把当前筛选保存为智能画板，之后一键回到这些图片。',
  deleteSmartBoard: '删除智能画板 {{name}}',
  nameTaken: '已有同名画板。',
  onlySession: '只看这个会话',
};

let registered = false;
export function registerLibraryI18n(): void {
  if (registered) return;
  registered = true;
  i18next.addResourceBundle('en', LIBRARY_NS, libraryEn, true, true);
  i18next.addResourceBundle('zh-CN', LIBRARY_NS, libraryZh, true, true);
}

registerLibraryI18n();

/** Plural keys are asked for by their base (`marked` with `count`), as i18next does. */
type LibraryPluralKey = { [K in LibraryKey]: K extends `${infer Base}_one` ? Base : never }[LibraryKey];
export type LibraryT = (key: LibraryKey | LibraryPluralKey, options?: Record<string, unknown>) => string;

/** t() for the library namespace; re-renders on a language change like useTranslation. */
export function useLibraryT(): LibraryT {
  const { i18n } = useTranslation();
  const lng = i18n.language;
  return useCallback(
    (key: string, options?: Record<string, unknown>) => {
      // The app's t() is typed against its own namespace only; ours is checked by LibraryKey instead.
      const translate = i18n.t as unknown as (k: string, o: Record<string, unknown>) => string;
      return translate(key, { ...options, ns: LIBRARY_NS, lng });
    },
    [i18n, lng],
  );
}
