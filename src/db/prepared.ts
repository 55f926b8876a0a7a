// Statements prepared on first use. Building and preparing every statement of every service at
// start took several milliseconds of a cold start (bench/cold-start.ts), most of them for routes
// a given run never calls.

type Built<T extends Record<string, () => unknown>> = { readonly [K in keyof T]: ReturnType<T[K]> };

/**
 * An object whose every key is built by its function on first read and kept: after that first
 * read the key is a plain property, so the hot path pays nothing for the laziness.
 */
export function preparedOnFirstUse<T extends Record<string, () => unknown>>(builders: T): Built<T> {
  const out = {} as Built<T>;
  for (const key of Object.keys(builders)) {
    Object.defineProperty(out, key, {
      configurable: true,
      enumerable: true,
      get() {
        const value = builders[key]!();
        Object.defineProperty(out, key, { value, enumerable: true });
        return value;
      },
    });
  }
  return out;
}
