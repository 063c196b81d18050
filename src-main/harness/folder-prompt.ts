// The harness's folder chooser for a person (README "Browser harness"): Electron shows the OS chooser, the
// harness has none, so a chooser call with no scripted answer (POST /harness/shell-answers) waits here until the
// page answers through the prompt's endpoints (harness-server.ts), which its api.js shows as an in-page dialog.
// Only folders under the allowed roots (the data folder and the user's home) can be listed or chosen, judged after
// symlinks are resolved, so a link inside home cannot lead the prompt to /etc.
import { randomBytes } from 'node:crypto';
import { readdir, realpath, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import type { ChooseFolderRequest } from '../ports/desktop-shell.ts';

/** What the page shows: the chooser's title, where it opens, and the folders it may go to. */
export interface FolderPromptView {
  id: string;
  title: string;
  /** The folder the prompt opens in (the chooser's defaultPath when allowed, else the first root). */
  start: string;
  roots: string[];
}

/** One folder's sub-folders (hidden ones left out, as OS choosers do), sorted by name as people read numbers. */
export interface FolderListing {
  path: string;
  /** Null at an allowed root: the prompt goes no higher. */
  parent: string | null;
  folders: Array<{ name: string; path: string }>;
}

/** A folder the prompt does not go to, or an answer to a prompt that is no longer open; `status` is the HTTP one. */
export class FolderPromptRefusal extends Error {
  override name = 'FolderPromptRefusal';
  readonly status: 400 | 403 | 404 | 409;
  constructor(status: 400 | 403 | 404 | 409, message: string) {
    super(message);
    this.status = status;
  }
}

/** Sub-folders listed at most: a folder with more is not one a person picks by scrolling. */
const LISTED_MAX = 2000;

type Watcher = (view: FolderPromptView | null) => void;

function isInside(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

export class FolderPrompt {
  private pending: { view: FolderPromptView; answer: (folder: string | null) => void } | null = null;
  private readonly watchers = new Set<Watcher>();

  private readonly roots: readonly string[];

  /** `roots`: the folders the prompt may show and answer with, and everything under them. */
  constructor(roots: readonly string[]) {
    this.roots = roots;
  }

  /**
   * A page that can show the prompt (the harness's page, over its events socket): told now when one is open, and
   * on every change. With no page watching, a chooser call is cancelled at once, as before the prompt existed.
   */
  watch(watcher: Watcher): () => void {
    this.watchers.add(watcher);
    if (this.pending) watcher(this.pending.view);
    return () => this.watchers.delete(watcher);
  }

  current(): FolderPromptView | null {
    return this.pending?.view ?? null;
  }

  /** The chooser's call: resolves with the folder the person chose (symlinks resolved), or null when cancelled. */
  async ask(request: ChooseFolderRequest): Promise<string | null> {
    if (this.watchers.size === 0) return null;
    const roots = await this.allowedRoots();
    if (roots.length === 0) return null;
    const start = request.defaultPath ? await this.allowedOrNull(request.defaultPath, roots) : null;
    // One prompt at a time: a newer chooser call replaces (cancels) an older one nobody answered.
    this.settle(null);
    return new Promise((resolve) => {
      const view: FolderPromptView = { id: randomBytes(8).toString('hex'), title: request.title, start: start ?? (roots[0] as string), roots };
      this.pending = { view, answer: resolve };
      this.tell(view);
    });
  }

  /** The sub-folders of an allowed folder. */
  async list(path: string): Promise<FolderListing> {
    const roots = await this.allowedRoots();
    const folder = await this.allowed(path, roots);
    const entries = await readdir(folder, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
      throw new FolderPromptRefusal(403, `${folder} cannot be read (${error.code ?? error.message}).`);
    });
    const folders: FolderListing['folders'] = [];
    for (const entry of entries) {
      if (folders.length >= LISTED_MAX) break;
      if (entry.name.startsWith('.')) continue;
      const child = join(folder, entry.name);
      // A link is listed when it leads to a folder the prompt may go to.
      const isFolder = entry.isDirectory() || (entry.isSymbolicLink() && (await this.allowedOrNull(child, roots)) !== null);
      if (isFolder) folders.push({ name: entry.name, path: child });
    }
    folders.sort((a, b) => a.name.localeCompare(b.name, undefined, { numeric: true }));
    const up = dirname(folder);
    return { path: folder, parent: up !== folder && roots.some((root) => isInside(up, root)) ? up : null, folders };
  }

  /** The page's answer to the open prompt `id`: an allowed folder, or null (cancel). Answers the folder chosen. */
  async answer(id: string, folder: string | null): Promise<string | null> {
    const stillOpen = (): void => {
      if (this.pending?.view.id !== id) throw new FolderPromptRefusal(409, 'This folder prompt is no longer open (it was answered, or a newer one replaced it).');
    };
    stillOpen();
    const chosen = folder === null ? null : await this.allowed(folder, await this.allowedRoots());
    // Checked again: another answer may have come while the folder was being checked.
    stillOpen();
    this.settle(chosen);
    return chosen;
  }

  /** The harness is closing: an open prompt is cancelled. */
  close(): void {
    this.settle(null);
  }

  private settle(folder: string | null): void {
    const pending = this.pending;
    if (!pending) return;
    this.pending = null;
    pending.answer(folder);
    this.tell(null);
  }

  private tell(view: FolderPromptView | null): void {
    for (const watcher of [...this.watchers]) watcher(view);
  }

  /** The roots with their symlinks resolved; one that does not exist is left out. */
  private async allowedRoots(): Promise<string[]> {
    const resolved = await Promise.all(this.roots.map((root) => realpath(root).catch(() => null)));
    return [...new Set(resolved.filter((root): root is string => root !== null))];
  }

  private async allowedOrNull(path: string, roots: string[]): Promise<string | null> {
    return this.allowed(path, roots).catch(() => null);
  }

  /** The folder with symlinks resolved, when it is one under an allowed root; refused otherwise. */
  private async allowed(path: string, roots: string[]): Promise<string> {
    if (!isAbsolute(path) || path.includes('\0')) throw new FolderPromptRefusal(400, `Not an absolute path: ${path}`);
    let real: string;
    try {
      real = await realpath(path);
    } catch {
      throw new FolderPromptRefusal(404, `There is no folder ${path}.`);
    }
    if (!roots.some((root) => isInside(real, root))) {
      throw new FolderPromptRefusal(403, `${path} is outside the folders the harness may choose (${roots.join(', ')}): choose a folder under the data folder or your home folder.`);
    }
    const isFolder = await stat(real).then((s) => s.isDirectory(), () => false);
    if (!isFolder) throw new FolderPromptRefusal(404, `${path} is not a folder.`);
    return real;
  }
}
