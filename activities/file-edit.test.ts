import { applySurgicalEdit, EDIT_FILE_TOOL_SCHEMA } from './file-edit';

const FILE = ['# Title', '', 'const greeting = "hello";', 'export default greeting;', ''].join('\n');

describe('a surgical edit replaces exactly one literal span', () => {
  test('the one occurrence of old is replaced and everything else is kept byte for byte', () => {
    expect(applySurgicalEdit(FILE, '"hello"', '"hi"')).toEqual({ ok: true, content: FILE.replace('"hello"', '"hi"') });
  });

  test('a span across lines is matched and replaced as it stands', () => {
    const result = applySurgicalEdit(FILE, '"hello";\nexport', '"hello";\n\nexport');
    expect(result).toEqual({ ok: true, content: FILE.replace('"hello";\nexport', '"hello";\n\nexport') });
  });

  test('regular-expression characters in old and new are plain text', () => {
    const content = 'price: $1.00 (each)\n';
    expect(applySurgicalEdit(content, '$1.00 (each)', '$& $1')).toEqual({ ok: true, content: 'price: $& $1\n' });
  });

  test('an empty replacement deletes the span', () => {
    expect(applySurgicalEdit('a-b-c', '-b', '')).toEqual({ ok: true, content: 'a-c' });
  });

  test('a replacement that contains old is applied once, not recursively', () => {
    expect(applySurgicalEdit('x foo y', 'foo', 'foo bar')).toEqual({ ok: true, content: 'x foo bar y' });
  });
});

describe('a surgical edit is refused with a reason the model can act on', () => {
  test('an empty old is refused: there is no span to find', () => {
    const result = applySurgicalEdit(FILE, '', 'x');
    expect(result).toMatchObject({ ok: false, kind: 'empty-old' });
    if (!result.ok) expect(result.reason).toContain('write_file');
  });

  test('old equal to new is refused as a no-op', () => {
    expect(applySurgicalEdit(FILE, '"hello"', '"hello"')).toMatchObject({ ok: false, kind: 'no-op' });
  });

  test('a no-op is refused even when old is absent, since it could change nothing anyway', () => {
    expect(applySurgicalEdit(FILE, 'absent', 'absent')).toMatchObject({ ok: false, kind: 'no-op' });
  });

  test('old that occurs twice is refused with the count, the lines and advice to add context', () => {
    const content = 'let a = 1;\nlet b = 1;\n';
    const result = applySurgicalEdit(content, ' = 1;', ' = 2;');
    expect(result).toMatchObject({ ok: false, kind: 'ambiguous' });
    if (!result.ok) {
      expect(result.reason).toContain('occurs 2 times');
      expect(result.reason).toContain('lines 1, 2');
      expect(result.reason).toContain('more surrounding text');
    }
  });

  test('overlapping occurrences count as ambiguous', () => {
    expect(applySurgicalEdit('aaa', 'aa', 'b')).toMatchObject({ ok: false, kind: 'ambiguous' });
  });

  test('many occurrences are counted in full but only the first lines are listed', () => {
    const content = 'x\n'.repeat(9);
    const result = applySurgicalEdit(content, 'x', 'y');
    if (result.ok) throw new Error('expected a refusal');
    expect(result.reason).toContain('occurs 9 times in the file (at lines 1, 2, 3, 4, 5, ...)');
  });

  test('old not found is refused with the closest line, quoted so whitespace shows', () => {
    const result = applySurgicalEdit(FILE, 'const greeting = "hallo";', 'x');
    expect(result).toMatchObject({ ok: false, kind: 'not-found' });
    if (!result.ok) expect(result.reason).toContain('closest line is 3: "const greeting = \\"hello\\";"');
  });

  test('old that differs only in indentation points at the line it meant', () => {
    const content = 'function f() {\n\treturn 1;\n}\n';
    const result = applySurgicalEdit(content, '    return 1;', '    return 2;');
    if (result.ok) throw new Error('expected a refusal');
    expect(result.reason).toContain('closest line is 2: "\\treturn 1;"');
  });

  test('old resembling nothing is refused with the first lines of the file', () => {
    const result = applySurgicalEdit(FILE, 'zzzz qqqq', 'x');
    expect(result).toMatchObject({ ok: false, kind: 'not-found' });
    if (!result.ok) expect(result.reason).toContain('the file begins with 1: "# Title" / 2: "" / 3: "const greeting');
  });

  test('old not found in an empty file says the file is empty', () => {
    const result = applySurgicalEdit('', 'anything', 'x');
    if (result.ok) throw new Error('expected a refusal');
    expect(result.reason).toContain('the file is empty');
  });

  test('old not found while new is present says the edit may have been applied already', () => {
    const edited = FILE.replace('"hello"', '"hi"');
    const result = applySurgicalEdit(edited, '"hello"', '"hi"');
    if (result.ok) throw new Error('expected a refusal');
    expect(result.reason).toContain('may have been applied already');
  });

  test('a quoted excerpt of a long line is cut short', () => {
    const long = `const text = "${'x'.repeat(500)}";`;
    const result = applySurgicalEdit(long, `const text = "${'x'.repeat(499)}y";`, 'z');
    if (result.ok) throw new Error('expected a refusal');
    expect(result.reason.length).toBeLessThan(400);
    expect(result.reason).toContain('…');
  });
});

describe('the edit_file tool schema', () => {
  test('requires path, old and new as strings and nothing else', () => {
    expect(EDIT_FILE_TOOL_SCHEMA).toMatchObject({
      type: 'object',
      properties: { path: { type: 'string' }, old: { type: 'string' }, new: { type: 'string' } },
      required: ['path', 'old', 'new'],
      additionalProperties: false,
    });
  });

  test('is plain JSON data, so it survives serialisation into a model request unchanged', () => {
    expect(JSON.parse(JSON.stringify(EDIT_FILE_TOOL_SCHEMA))).toEqual(EDIT_FILE_TOOL_SCHEMA);
  });
});
