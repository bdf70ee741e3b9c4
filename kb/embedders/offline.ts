import type { Embedder, EmbedderIdentity } from './types';

export const OFFLINE_DIMS = 256;
export const OFFLINE_IDENTITY: EmbedderIdentity = {
  provider: 'offline',
  model: 'keel-lexical-hash-v1',
  dims: OFFLINE_DIMS,
};

// Words that carry no topic; dropped from unigrams only (bigrams keep them, so phrases still match).
const STOPWORDS = new Set(
  'a an and are as at be by for from has have in is it its of on or that the this to was were will with'.split(' '),
);

/**
 * The built-in offline embedder: a lexical feature-hashing embedder (the "hashing trick"). Features are the text's
 * lowercased word unigrams (stopwords dropped, weight 1) and adjacent word bigrams (weight 0.7), each counted with
 * sublinear term frequency (1 + ln tf), hashed with 32-bit FNV-1a into 256 buckets with a sign taken from the hash's
 * top bit, then L2-normalised. Similar wording gives similar vectors; there is no semantics beyond shared words. A
 * text with no words gets the unit vector e0, so cosine distance is always defined.
 */
export function offlineEmbed(text: string): number[] {
  const words = text
    .normalize('NFKC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0);
  const counts = new Map<string, { count: number; weight: number }>();
  const add = (feature: string, weight: number) => {
    const seen = counts.get(feature);
    if (seen) seen.count += 1;
    else counts.set(feature, { count: 1, weight });
  };
  words.forEach((word, i) => {
    if (!STOPWORDS.has(word)) add(word, 1);
    if (i > 0) add(`${words[i - 1]} ${word}`, 0.7);
  });
  const vector = new Array<number>(OFFLINE_DIMS).fill(0);
  for (const [feature, { count, weight }] of counts) {
    const hash = fnv1a(feature);
    vector[hash % OFFLINE_DIMS]! += (hash >>> 31 === 1 ? -1 : 1) * weight * (1 + Math.log(count));
  }
  const norm = Math.sqrt(vector.reduce((sum, v) => sum + v * v, 0));
  if (norm === 0) {
    vector[0] = 1;
    return vector;
  }
  return vector.map((v) => v / norm);
}

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

export function createOfflineEmbedder(): Embedder {
  return {
    identity: () => Promise.resolve(OFFLINE_IDENTITY),
    embed: (texts) => Promise.resolve(texts.map(offlineEmbed)),
  };
}
