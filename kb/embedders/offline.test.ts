import { OFFLINE_DIMS, offlineEmbed } from './offline';

const cosine = (a: number[], b: number[]) => a.reduce((sum, v, i) => sum + v * b[i]!, 0);

describe('offlineEmbed', () => {
  it('gives unit vectors of the documented size, the same for the same text', () => {
    const v = offlineEmbed('Rotate the signing keys every quarter');
    expect(v).toHaveLength(OFFLINE_DIMS);
    expect(cosine(v, v)).toBeCloseTo(1, 10);
    expect(offlineEmbed('Rotate the signing keys every quarter')).toEqual(v);
  });

  it('puts texts sharing words closer than unrelated texts', () => {
    const query = offlineEmbed('how do I rotate signing keys');
    const related = offlineEmbed('Signing keys: rotate them every quarter with keel keys rotate.');
    const unrelated = offlineEmbed('The cafeteria serves lunch from noon until two.');
    expect(cosine(query, related)).toBeGreaterThan(cosine(query, unrelated) + 0.2);
  });

  it('gives a text without words the unit vector e0', () => {
    const v = offlineEmbed('--- !!! ---');
    expect(v[0]).toBe(1);
    expect(cosine(v, v)).toBe(1);
  });
});
