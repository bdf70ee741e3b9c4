import { firstScenarioFor } from './build-directive';

test('`#build` runs the product scenario unless the job names a scenario other than the default', () => {
  expect(firstScenarioFor('A page for a bakery #build', undefined)).toBe('product');
  expect(firstScenarioFor('A page for a bakery #build', 'build')).toBe('product');
  expect(firstScenarioFor('A page for a bakery #build', 'review')).toBe('review');
  expect(firstScenarioFor('#build-fail=2 only', undefined)).toBe('build');
  expect(firstScenarioFor('Write hello.md', undefined)).toBe('build');
});
