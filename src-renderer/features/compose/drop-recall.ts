// Recall by drop: an image the app exported carries its generation data (a PNG's iTXt chunk, the XMP of a JPEG
// or WebP). Dropped on the compose panel, its settings go back into the form through the same recall as a turn's
// Recall button, with those of its reference images that are in this library. A file without that data changes
// nothing and says why (files from outside cannot be references either: the service has no upload).
import type { DragEvent } from 'react';
import { call } from '../../lib/desktop.ts';
import type * as ReaderModule from './generation-data-reader.ts';
import { IMAGE_DRAG_TYPE } from '../../lib/image-drag.ts';
import { useComposeStore, type RecallSource } from './store.ts';

type GenerationDataReader = typeof ReaderModule;
let readerLoad: Promise<GenerationDataReader> | null = null;

/**
 * The reader (it checks the data with zod, which start-up does not load), fetched on the first file dragged over
 * the panel; a failed load is forgotten, so the next drop tries again.
 */
function loadReader(): Promise<GenerationDataReader> {
  readerLoad ??= import('./generation-data-reader.ts').catch((error: unknown) => {
    readerLoad = null;
    throw error;
  });
  return readerLoad;
}

/** Files larger than this are not read (an exported 4K PNG is far smaller). */
const MAX_DROP_BYTES = 256 * 1024 * 1024;

function hasFiles(e: DragEvent): boolean {
  const types = Array.from(e.dataTransfer.types);
  return types.includes('Files') && !types.includes(IMAGE_DRAG_TYPE);
}

/**
 * Which of these ids the library knows (its references may come from another computer's library), asked in one
 * call whatever their number (the reader has already refused more than a request may carry).
 */
async function inLibrary(ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  try {
    const { images } = await call('libraryGetImages', { imageIds: ids });
    return images.map((i) => i.id);
  } catch {
    return [];
  }
}

/** The session the file's image was made in: this library's own when it has it, else the service's id. */
async function sourceSession(sessionId: string, serviceSessionId: string | null): Promise<RecallSource> {
  try {
    const session = await call('libraryGetSession', { sessionId });
    return { sessionId: session.id, serviceSessionId };
  } catch {
    return { sessionId: null, serviceSessionId };
  }
}

/** Why a dropped file recalled nothing: over a request's limits (too many references, too long), damaged, or no data. */
function refusedKind(reason: 'absent' | 'damaged' | 'not_image' | 'over_limit') {
  if (reason === 'over_limit') return 'oversized_generation_data';
  return reason === 'damaged' ? 'damaged_generation_data' : 'no_generation_data';
}

/** Reads the first dropped file and recalls it, or leaves a notice saying why nothing changed. */
export async function recallFromFiles(files: readonly File[]): Promise<void> {
  const { recall, setTrayNotice } = useComposeStore.getState();
  const file = files[0];
  if (!file) return;
  if (file.size > MAX_DROP_BYTES) {
    setTrayNotice({ kind: 'no_generation_data', count: files.length, name: file.name });
    return;
  }
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await file.arrayBuffer());
  } catch {
    setTrayNotice({ kind: 'damaged_generation_data', count: files.length, name: file.name });
    return;
  }
  let reader: GenerationDataReader;
  try {
    reader = await loadReader();
  } catch {
    setTrayNotice({ kind: 'reader_unavailable', count: files.length, name: file.name });
    return;
  }
  const { readGenerationData, recallableRequest } = reader;
  const read = readGenerationData(bytes);
  if (!read.ok) {
    setTrayNotice({ kind: refusedKind(read.reason), count: files.length, name: file.name });
    return;
  }
  const listed = read.data.referenceImageIds.length > 0 ? read.data.referenceImageIds : (read.data.request.ref_image_ids ?? []);
  const wanted = [...new Set(listed)];
  const [found, from] = await Promise.all([inLibrary(wanted), sourceSession(read.data.sessionId, read.data.serviceSessionId)]);
  const { ref_image_ids: _refs, ...request } = recallableRequest(read.data);
  recall(request, found, from);
  setTrayNotice({ kind: 'recalled', count: found.length, missing: wanted.length - found.length, name: file.name });
}

/** Drag handlers for the compose panel: files from outside are taken (gallery drags stay the tray's). */
export function fileDropHandlers() {
  return {
    onDragOver: (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      void loadReader().catch(() => undefined);
      e.dataTransfer.dropEffect = 'copy';
    },
    onDrop: (e: DragEvent) => {
      if (!hasFiles(e) && e.dataTransfer.files.length === 0) return;
      if (Array.from(e.dataTransfer.types).includes(IMAGE_DRAG_TYPE)) return;
      e.preventDefault();
      void recallFromFiles(Array.from(e.dataTransfer.files));
    },
  };
}
