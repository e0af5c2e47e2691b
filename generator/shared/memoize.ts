/** Caches a function of one key: each value is made once, on first use. */
export function memoize<K, V>(create: (key: K) => V): (key: K) => V {
  const cache = new Map<K, V>();
  return (key) => {
    if (cache.has(key)) return cache.get(key) as V;
    const value = create(key);
    cache.set(key, value);
    return value;
  };
}
