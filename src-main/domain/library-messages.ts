// The library's part of the main catalog (./messages.ts merges it): culling marks, boards and smart boards,
// in zh and en.
type Params = Record<string, unknown>;
type Text = { zh: (p: Params) => string; en: (p: Params) => string };

function s(value: unknown): string {
  return value === undefined || value === null ? '' : String(value);
}

/** At most five ids, then how many more. */
function ids(value: unknown, more: (n: number) => string): string {
  const list = Array.isArray(value) ? value.map(String) : [];
  return list.slice(0, 5).join(', ') + (list.length > 5 ? more(list.length - 5) : '');
}

export const LIBRARY_MESSAGES = {
  images_not_found: {
    zh: (p) => `图库中没有这些图片：${ids(p.imageIds, (n) => ` 等（另有 ${n} 张）`)}。未做任何更改。`,
    en: (p) => `${Array.isArray(p.imageIds) && p.imageIds.length === 1 ? 'This image is' : 'These images are'} not in the library: ${ids(p.imageIds, (n) => ` and ${n} more`)}. Nothing was changed.`,
  },
  board_not_found: {
    zh: (p) => `图板 ${s(p.boardId)} 不存在（可能已被删除）。未做任何更改。`,
    en: (p) => `There is no board ${s(p.boardId)} (it may have been deleted). Nothing was changed.`,
  },
  smart_board_not_found: {
    zh: (p) => `智能图板 ${s(p.id)} 不存在（可能已被删除）。未做任何更改。`,
    en: (p) => `There is no smart board ${s(p.id)} (it may have been deleted). Nothing was changed.`,
  },
  board_name_taken: {
    zh: (p) => `已有名为“${s(p.existing)}”的${p.kind === 'smart' ? '智能图板' : '图板'}（名称不区分大小写）。请换一个名称。未做任何更改。`,
    en: (p) => `A ${p.kind === 'smart' ? 'smart board' : 'board'} named “${s(p.existing)}” already exists (names ignore case). Choose another name. Nothing was changed.`,
  },
} satisfies Record<string, Text>;
