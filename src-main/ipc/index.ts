// The IPC layer's front door: merge the features' handler tables, then answer each call (parse the input with
// the contract, run the handler, screen the reply). It knows no feature; app/ hands it the tables.
export { dispatch } from './dispatch.ts';
export { mergeHandlerTables } from './tables.ts';
