import { imageUrl } from '../../lib/desktop.ts';

/** Loads at once, at most (the image protocol and the disk serve a few well; the grid's own tiles come first). */
const IN_FLIGHT = 6;
/** Ids remembered as asked for; past this the memory is cleared (the image cache may have let them go anyway). */
const REMEMBERED = 2000;

/**
 * Asks for the thumbnails of the rows the grid is scrolling towards while the page is idle, so a row that scrolls
 * in finds its images in the document's image cache: its tiles are never blank, and the frame that mounts it
 * starts no loads (starting ~7 loads was ~1–1.5 ms of that frame in the gallery-scroll bench's traces). Each id is
 * asked for once; an image is held until it has loaded or failed.
 */
export class ThumbPrefetcher {
  private readonly asked = new Set<string>();
  private readonly loading = new Set<HTMLImageElement>();
  private queue: string[] = [];
  private idle: number | null = null;

  /** The thumbnails wanted next, nearest first; replaces what was still waiting. */
  want(ids: readonly string[]): void {
    this.queue = ids.filter((id) => !this.asked.has(id));
    this.schedule();
  }

  dispose(): void {
    this.queue = [];
    if (this.idle !== null) cancelIdleCallback(this.idle);
    this.idle = null;
  }

  private schedule(): void {
    if (this.idle !== null || this.queue.length === 0 || this.loading.size >= IN_FLIGHT) return;
    this.idle = requestIdleCallback((deadline) => this.run(deadline), { timeout: 1000 });
  }

  private run(deadline: IdleDeadline): void {
    this.idle = null;
    while (this.queue.length > 0 && this.loading.size < IN_FLIGHT && (deadline.didTimeout || deadline.timeRemaining() > 1)) {
      const id = this.queue.shift() as string;
      if (this.asked.has(id)) continue;
      if (this.asked.size >= REMEMBERED) this.asked.clear();
      this.asked.add(id);
      const img = new Image();
      img.decoding = 'async';
      const settled = () => {
        this.loading.delete(img);
        this.schedule();
      };
      img.onload = settled;
      img.onerror = settled;
      img.src = imageUrl('thumb', id);
      this.loading.add(img);
    }
    this.schedule();
  }
}
