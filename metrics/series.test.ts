import fs from 'node:fs';
import path from 'node:path';
import { registry } from './registry';
import './series';

test('docs/metrics.md documents every series Keel defines', async () => {
  const page = fs.readFileSync(path.join(__dirname, '..', 'docs', 'metrics.md'), 'utf8');
  const keel = (await registry.getMetricsAsJSON())
    .map((metric) => metric.name)
    .filter((name) => name.startsWith('keel_'));
  expect(keel.length).toBeGreaterThan(10);
  expect(keel.filter((name) => !page.includes(`\`${name}\``))).toEqual([]);
});
