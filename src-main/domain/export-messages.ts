// The export's part of the main catalog (./messages.ts merges it): why an export did not start or stopped,
// in zh and en. The facts travel as params (and as `details` for the UI), the text is made when it is read.
type Params = Record<string, unknown>;
type Text = { zh: (p: Params) => string; en: (p: Params) => string };

function s(value: unknown): string {
  if (Array.isArray(value)) return value.map(String).join(', ');
  return value === undefined || value === null ? '' : String(value);
}

function fields(value: unknown): string {
  return Array.isArray(value) ? value.map((f) => `{${String(f)}}`).join(' ') : '';
}

export const EXPORT_MESSAGES = {
  export_template_unknown_field: {
    zh: (p) => `文件名模板中没有字段 {${s(p.field)}}。可用的字段：${fields(p.allowed)}。没有写入任何文件。`,
    en: (p) => `The file-name template has no field {${s(p.field)}}. Allowed fields: ${fields(p.allowed)}. Nothing was written.`,
  },
  export_template_syntax: {
    zh: (p) => `文件名模板在第 ${Number(p.at) + 1} 个字符处有不成对的花括号；字段写作 {session} 这样。没有写入任何文件。`,
    en: (p) => `The file-name template has an unmatched brace at character ${Number(p.at) + 1}; write fields like {session}. Nothing was written.`,
  },
  export_template_empty: {
    zh: () => '文件名模板为空。没有写入任何文件。',
    en: () => 'The file-name template is empty. Nothing was written.',
  },
  export_empty: {
    zh: (p) => (p.source === 'session' ? '该会话中没有图片可导出。' : '没有选中要导出的图片。'),
    en: (p) => (p.source === 'session' ? 'This session has no images to export.' : 'No images are selected for export.'),
  },
  export_nothing_ready: {
    zh: (p) => `这 ${s(p.count)} 张图片都还不能导出（尚未下载完成或文件已不在本机）。没有写入任何文件。`,
    en: (p) => `None of these ${s(p.count)} images can be exported yet (not downloaded, or the file is no longer on this computer). Nothing was written.`,
  },
  export_folder_not_writable: {
    zh: (p) => `无法写入文件夹 ${s(p.path)}${p.cause ? `（${s(p.cause)}）` : ''}。请选择另一个文件夹。${Number(p.written) > 0 ? `已写入 ${s(p.written)} 个文件。` : '没有写入任何文件。'}`,
    en: (p) =>
      `The folder ${s(p.path)} cannot be written${p.cause ? ` (${s(p.cause)})` : ''}. Choose another folder. ${Number(p.written) > 0 ? `${s(p.written)} file(s) had been written.` : 'Nothing was written.'}`,
  },
  export_boards_unavailable: {
    zh: () => '暂时还不能按画板导出：画板功能尚未完成。请先选中图片或按会话导出。',
    en: () => 'Exporting a board is not available yet: boards are not finished. Export a selection or a session instead.',
  },
  export_folder_title: { zh: () => '选择导出文件夹', en: () => 'Choose the export folder' },
} satisfies Record<string, Text>;
