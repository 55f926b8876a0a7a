// Random bytes from the Web Crypto global: code that runs before the server listens (config,
// security headers) uses this instead of node:crypto, whose loading cost ~2.5 ms of every start.
export const randomBytes = (n: number): Buffer => Buffer.from(crypto.getRandomValues(new Uint8Array(n)));
