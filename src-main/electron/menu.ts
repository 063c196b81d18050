// The application menu (File, Edit, View, Window, Help) in the UI language. The template is built by a plain
// function so its labels can be checked; main.ts turns it into a Menu.
import type { MenuItemConstructorOptions } from 'electron';
import type { Language } from '../../src-shared/language.ts';

export interface MenuActions {
  openDataFolder(): void;
  openLogsFolder(): void;
  about(): void;
}

type Labels = Record<
  | 'file' | 'edit' | 'view' | 'window' | 'help' | 'openDataFolder' | 'openLogsFolder' | 'quit' | 'close'
  | 'undo' | 'redo' | 'cut' | 'copy' | 'paste' | 'selectAll' | 'reload' | 'devTools' | 'resetZoom' | 'zoomIn'
  | 'zoomOut' | 'fullScreen' | 'minimize' | 'zoom' | 'front' | 'about' | 'hide' | 'hideOthers' | 'unhide' | 'services',
  string
>;

export const MENU_LABELS: Record<Language, Labels> = {
  zh: {
    file: '文件', edit: '编辑', view: '视图', window: '窗口', help: '帮助',
    openDataFolder: '打开数据文件夹', openLogsFolder: '打开日志文件夹', quit: '退出 Image Studio', close: '关闭窗口',
    undo: '撤销', redo: '重做', cut: '剪切', copy: '复制', paste: '粘贴', selectAll: '全选',
    reload: '重新加载', devTools: '开发者工具', resetZoom: '实际大小', zoomIn: '放大', zoomOut: '缩小', fullScreen: '切换全屏',
    minimize: '最小化', zoom: '缩放', front: '全部置于顶层', about: '关于 Image Studio',
    hide: '隐藏 Image Studio', hideOthers: '隐藏其他', unhide: '全部显示', services: '服务',
  },
  en: {
    file: 'File', edit: 'Edit', view: 'View', window: 'Window', help: 'Help',
    openDataFolder: 'Open Data Folder', openLogsFolder: 'Open Logs Folder', quit: 'Quit Image Studio', close: 'Close Window',
    undo: 'Undo', redo: 'Redo', cut: 'Cut', copy: 'Copy', paste: 'Paste', selectAll: 'Select All',
    reload: 'Reload', devTools: 'Developer Tools', resetZoom: 'Actual Size', zoomIn: 'Zoom In', zoomOut: 'Zoom Out', fullScreen: 'Toggle Full Screen',
    minimize: 'Minimize', zoom: 'Zoom', front: 'Bring All to Front', about: 'About Image Studio',
    hide: 'Hide Image Studio', hideOthers: 'Hide Others', unhide: 'Show All', services: 'Services',
  },
};

export function menuTemplate(language: Language, platform: NodeJS.Platform, actions: MenuActions, options: { developer: boolean }): MenuItemConstructorOptions[] {
  const l = MENU_LABELS[language];
  const mac = platform === 'darwin';
  const template: MenuItemConstructorOptions[] = [];
  if (mac) {
    template.push({
      label: 'Image Studio',
      submenu: [
        { label: l.about, click: () => actions.about() },
        { type: 'separator' },
        { role: 'services', label: l.services },
        { type: 'separator' },
        { role: 'hide', label: l.hide },
        { role: 'hideOthers', label: l.hideOthers },
        { role: 'unhide', label: l.unhide },
        { type: 'separator' },
        { role: 'quit', label: l.quit },
      ],
    });
  }
  template.push(
    {
      label: l.file,
      submenu: [
        { label: l.openDataFolder, click: () => actions.openDataFolder() },
        { label: l.openLogsFolder, click: () => actions.openLogsFolder() },
        { type: 'separator' },
        mac ? { role: 'close', label: l.close } : { role: 'quit', label: l.quit },
      ],
    },
    {
      label: l.edit,
      submenu: [
        { role: 'undo', label: l.undo },
        { role: 'redo', label: l.redo },
        { type: 'separator' },
        { role: 'cut', label: l.cut },
        { role: 'copy', label: l.copy },
        { role: 'paste', label: l.paste },
        { role: 'selectAll', label: l.selectAll },
      ],
    },
    {
      label: l.view,
      submenu: [
        ...(options.developer
          ? ([{ role: 'reload', label: l.reload }, { role: 'toggleDevTools', label: l.devTools }, { type: 'separator' }] as MenuItemConstructorOptions[])
          : []),
        { role: 'resetZoom', label: l.resetZoom },
        { role: 'zoomIn', label: l.zoomIn },
        { role: 'zoomOut', label: l.zoomOut },
        { type: 'separator' },
        { role: 'togglefullscreen', label: l.fullScreen },
      ],
    },
    {
      label: l.window,
      role: 'window',
      submenu: [
        { role: 'minimize', label: l.minimize },
        { role: 'zoom', label: l.zoom },
        ...(mac ? ([{ type: 'separator' }, { role: 'front', label: l.front }] as MenuItemConstructorOptions[]) : [{ role: 'close', label: l.close } as MenuItemConstructorOptions]),
      ],
    },
    {
      label: l.help,
      role: 'help',
      submenu: [{ label: l.about, click: () => actions.about() }],
    },
  );
  return template;
}
