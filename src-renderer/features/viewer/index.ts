// The viewer's front door: the loupe (one image, full screen) and compare (2–4 images side by side, one shared
// zoom). Other features and App.tsx import the viewer only from here.
export { ImageViewer } from './ImageViewer.tsx';
export { CompareView } from './CompareView.tsx';
export { MarkUndoBar } from './MarkUndoBar.tsx';
