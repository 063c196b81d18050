// English UI strings. zh-CN.ts must have exactly the same keys (its type is derived from this file).
export const en = {
  app: { name: 'Image Studio' },
  nav: { studio: 'Studio', webhooks: 'Webhooks', local: 'Local service', settings: 'Settings', label: 'Sections' },
};
export type Resources = typeof en;
