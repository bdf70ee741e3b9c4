import { projectNameFor, wantsProductBuild } from './product-job';

test('#build is a whole token', () => {
  expect(wantsProductBuild('Build a landing page for a bakery #build')).toBe(true);
  expect(wantsProductBuild('(#build) please')).toBe(true);
  expect(wantsProductBuild('#build-fail=2 only')).toBe(false);
  expect(wantsProductBuild('#builder')).toBe(false);
});

test('the project name comes from what the product is for, else the project slug', () => {
  expect(projectNameFor('Build a landing page for a bakery #build')).toBe('Bakery');
  expect(projectNameFor('a page for the corner cafe that takes payments')).toBe('Corner Cafe');
  expect(projectNameFor('Build something small', 'acme-docs')).toBe('Acme Docs');
  expect(projectNameFor('Build something small')).toBe('My Project');
});
