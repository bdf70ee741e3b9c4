import { sharedRead } from './shared-reads';

/** A read whose answers the test releases one at a time; `started` counts the reads made. */
function controlledRead() {
  const pending: Array<{ resolve: (value: number) => void; reject: (err: Error) => void }> = [];
  let started = 0;
  return {
    read: () =>
      new Promise<number>((resolve, reject) => {
        started += 1;
        pending.push({ resolve, reject });
      }),
    get started() {
      return started;
    },
    answer(value: number) {
      pending.shift()!.resolve(value);
    },
    fail(message: string) {
      pending.shift()!.reject(new Error(message));
    },
  };
}

describe('sharedRead', () => {
  it('makes one read for a caller alone', async () => {
    const owner = {};
    const db = controlledRead();
    const call = sharedRead(owner, 'k', db.read);
    expect(db.started).toBe(1);
    db.answer(7);
    expect(await call).toBe(7);
  });

  it('gives a caller that asks while a read runs the next read, started after it asked', async () => {
    const owner = {};
    const db = controlledRead();
    const first = sharedRead(owner, 'k', db.read);
    const later = [sharedRead(owner, 'k', db.read), sharedRead(owner, 'k', db.read)];
    expect(db.started).toBe(1);
    db.answer(1);
    expect(await first).toBe(1);
    // The read the later callers share starts once the first has settled: it sees what was written meanwhile.
    expect(db.started).toBe(2);
    db.answer(2);
    expect(await Promise.all(later)).toEqual([2, 2]);
  });

  it('starts afresh once every read of the key has settled', async () => {
    const owner = {};
    const db = controlledRead();
    const first = sharedRead(owner, 'k', db.read);
    db.answer(1);
    await first;
    const second = sharedRead(owner, 'k', db.read);
    expect(db.started).toBe(2);
    db.answer(2);
    expect(await second).toBe(2);
  });

  it('rejects every caller of a failed read, and the next read is made anyway', async () => {
    const owner = {};
    const db = controlledRead();
    const first = sharedRead(owner, 'k', db.read);
    const joined = [sharedRead(owner, 'k', db.read), sharedRead(owner, 'k', db.read)];
    db.answer(1);
    expect(await first).toBe(1);
    db.fail('database gone');
    await expect(joined[0]).rejects.toThrow('database gone');
    await expect(joined[1]).rejects.toThrow('database gone');
    const next = sharedRead(owner, 'k', db.read);
    expect(db.started).toBe(3);
    db.answer(3);
    expect(await next).toBe(3);
  });

  it('rejects the callers of a read that throws before it returns a promise', async () => {
    const owner = {};
    await expect(
      sharedRead(owner, 'k', () => {
        throw new Error('bad arguments');
      }),
    ).rejects.toThrow('bad arguments');
    expect(await sharedRead(owner, 'k', () => Promise.resolve(4))).toBe(4);
  });

  it('never shares a read between keys or between owners', async () => {
    const db = controlledRead();
    const a = {};
    const b = {};
    const reads = [sharedRead(a, 'k', db.read), sharedRead(a, 'other', db.read), sharedRead(b, 'k', db.read)];
    expect(db.started).toBe(3);
    db.answer(1);
    db.answer(2);
    db.answer(3);
    expect(await Promise.all(reads)).toEqual([1, 2, 3]);
  });
});
