// The library's front door: the full-window library view.
export { LibraryView } from './LibraryView.tsx';
