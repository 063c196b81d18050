// 简体中文界面文案：键与 en.ts 完全一致（类型检查保证）。
import type { Resources } from './en.ts';

export const zhCN: Resources = {
  app: { name: 'Image Studio' },
  nav: { studio: '工作台', webhooks: 'Webhooks', local: '本地服务', settings: '设置', label: '页面' },
};
