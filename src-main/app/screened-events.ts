// Main → renderer events for the hosts: every payload passes the one secret screen (domain/secret-screen.ts)
// with the secrets main holds now, then goes to each listener; a faulty listener never breaks the app.
import type { IpcEventName, IpcEvents } from '../../src-shared/ipc/index.ts';
import { screenValue } from '../domain/secret-screen.ts';

type Listener = (payload: never) => void;

export class ScreenedEvents {
  private readonly listeners = new Map<IpcEventName, Set<Listener>>();
  private readonly knownSecrets: () => Iterable<string>;

  constructor(knownSecrets: () => Iterable<string>) {
    this.knownSecrets = knownSecrets;
  }

  readonly emit = <E extends IpcEventName>(event: E, payload: IpcEvents[E]): void => {
    const set = this.listeners.get(event);
    if (!set || set.size === 0) return;
    const screened = screenValue(payload, this.knownSecrets());
    for (const listener of set) {
      try {
        (listener as (p: IpcEvents[E]) => void)(screened);
      } catch {
        // A faulty listener must not break the core.
      }
    }
  };

  on<E extends IpcEventName>(event: E, listener: (payload: IpcEvents[E]) => void): () => void {
    let set = this.listeners.get(event);
    if (!set) {
      set = new Set();
      this.listeners.set(event, set);
    }
    set.add(listener as Listener);
    return () => set.delete(listener as Listener);
  }
}
