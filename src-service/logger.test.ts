// Logging can never block or delay the exit: a broken stderr drops lines instead of retrying, and a reader that
// stopped reading costs at most the backlog.
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { droppingDestination } from './logger.ts';

class FakeStderr extends EventEmitter {
  written: string[] = [];
  writableLength = 0;
  destroyed = false;
  write(text: string): boolean {
    this.written.push(text);
    return true;
  }
}

describe('the log destination', () => {
  it('drops every line after a write error (EPIPE from a dead app) and never throws', () => {
    const stream = new FakeStderr();
    const destination = droppingDestination(stream);
    destination.write('one\n');
    stream.emit('error', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    destination.write('two\n');
    expect(stream.written).toEqual(['one\n']);
  });

  it('drops lines while more than 1 MB waits for a reader that stopped reading, and writes again once it drains', () => {
    const stream = new FakeStderr();
    const destination = droppingDestination(stream);
    stream.writableLength = 2 * 1024 * 1024;
    destination.write('while stuck\n');
    stream.writableLength = 0;
    destination.write('after\n');
    expect(stream.written).toEqual(['after\n']);
  });

  it('a write that throws marks it broken instead of escaping', () => {
    const stream = new FakeStderr();
    stream.write = () => {
      throw new Error('closed');
    };
    const destination = droppingDestination(stream);
    expect(() => destination.write('x\n')).not.toThrow();
  });
});
