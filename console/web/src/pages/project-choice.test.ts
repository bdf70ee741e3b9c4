import { expect, test } from '@jest/globals';
import { chosenProject, type ProjectChoice } from './project-choice';

const apollo = { slug: 'apollo', name: 'Apollo', created_at: '2026-01-01T00:00:00Z' };
const picked: ProjectChoice = { kind: 'project', project: apollo };

test('a picked project counts while the field reads its name', () => {
  expect(chosenProject(picked, 'Apollo', [apollo])).toEqual(picked);
  expect(chosenProject({ kind: 'create', name: 'Zeus' }, ' zeus ', [apollo])).toEqual({ kind: 'create', name: 'Zeus' });
});

test('typed over, the pick no longer counts; an exact name or slug typed without picking does', () => {
  expect(chosenProject(picked, 'Apollo 2', [apollo])).toBeNull();
  expect(chosenProject(null, 'apollo', [apollo])).toEqual(picked);
  expect(chosenProject(null, 'APOLLO', [apollo])).toEqual(picked);
  expect(chosenProject(null, '', [apollo])).toBeNull();
});
