// IPC: the webhook inspector (issue "Webhook inspector"). Owned by that work; extend here.
import { z } from 'zod';
import { method } from './contract.ts';

export interface InspectorStatus {
  running: boolean;
  port: number | null;
  /** e.g. http://127.0.0.1:8430/webhooks */
  url: string | null;
  secretStored: boolean;
  forcedStatus: number | null;
  delayMs: number;
  error: string | null;
}

export const inspectorMethods = {
  inspectorStatus: method<InspectorStatus>()('inspector:status', z.object({})),
};
