import { derivedId, isId, newId, randomBase32 } from '../../functions/platform/ids';

describe('ids', () => {
  it('makes ids of the documented shape, none repeated across many refills of the random pool', () => {
    // 20 characters an id: 5,000 ids draw 100,000 bytes, about 25 refills of the 4 KiB pool, and cross
    // its end at every offset an id can start at.
    const ids = Array.from({ length: 5_000 }, () => newId('dlv'));
    expect(ids.every((id) => isId('dlv', id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('draws every base32 character about equally often', () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 1_000; i++) for (const c of randomBase32(97)) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect(counts.size).toBe(32);
    // 97,000 characters, 3,031 expected of each: a constant or biased pool would be far outside.
    for (const n of counts.values()) expect(Math.abs(n - 97_000 / 32)).toBeLessThan(400);
  });

  it('refuses more characters than the pool holds rather than repeating bytes', () => {
    expect(randomBase32(4096)).toMatch(/^[a-z2-7]{4096}$/);
    expect(() => randomBase32(4097)).toThrow(RangeError);
  });

  it('derives the same id from the same name, another from another', () => {
    expect(derivedId('doc', 'a')).toBe(derivedId('doc', 'a'));
    expect(derivedId('doc', 'a')).not.toBe(derivedId('doc', 'b'));
    expect(isId('doc', derivedId('doc', 'a'))).toBe(true);
  });
});
