import { parseToolArguments } from './tool-arguments';

describe('parseToolArguments', () => {
  test('reads a JSON object', () => {
    expect(parseToolArguments('{"path":"a.md","content":"hi"}')).toEqual({ path: 'a.md', content: 'hi' });
  });

  test.each([
    ['broken JSON', '{"path": '],
    ['an empty string', ''],
    ['an array', '["a.md"]'],
    ['a string', '"a.md"'],
    ['null', 'null'],
  ])('reads %s as an empty object', (_name, text) => {
    expect(parseToolArguments(text)).toEqual({});
  });
});
