// The viewer and compare moved to features/viewer and features/compare; this keeps App.tsx's import working.
export { ImageViewer } from '../viewer/ImageViewer.tsx';
export { CompareView } from '../compare/CompareView.tsx';
