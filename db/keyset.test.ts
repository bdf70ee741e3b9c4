import { CURSOR_TIME, decodeKeyset, encodeKeyset, pageOf } from './keyset';

describe('keyset cursors', () => {
  const patterns = [CURSOR_TIME, /^in-[0-9a-f-]{36}$/];
  const parts = ['2026-11-24T07:00:00.123456Z', 'in-0f8fad5b-d9cb-469f-a165-70867728950e'];

  it('round-trips what it issued', () => {
    expect(decodeKeyset(encodeKeyset(parts), patterns)).toEqual(parts);
  });

  it.each([
    ['not base64url', '%%%'],
    ['padded', `${encodeKeyset(parts)}=`],
    ['wrong part count', encodeKeyset([parts[0]!])],
    ['a part off its pattern', encodeKeyset([parts[0]!, 'wf-1'])],
    ['an impossible date', encodeKeyset(['2026-02-30T00:00:00.000000Z', parts[1]!])],
    ['a time without microseconds', encodeKeyset(['2026-11-24T07:00:00Z', parts[1]!])],
  ])('refuses %s', (_what, cursor) => {
    expect(decodeKeyset(cursor, patterns)).toBeUndefined();
  });

  it('gives a next cursor only for a full page', () => {
    expect(pageOf([{ id: 'a' }, { id: 'b' }], 2, (r) => [r.id]).next_cursor).toBe(encodeKeyset(['b']));
    expect(pageOf([{ id: 'a' }], 2, (r) => [r.id]).next_cursor).toBeNull();
  });
});
