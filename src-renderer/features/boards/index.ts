// The boards' front door: the boards list (library) and strip (gallery), the picker (B, "Add to board"), and the
// board and smart-board queries the gallery's filters and selection use.
export { BoardsSection, BoardStrip } from './Boards.tsx';
export { BoardPicker } from './BoardPicker.tsx';
export { useBoardRemove, useBoards, useSaveSmartBoard, useSmartBoards } from './queries.ts';
