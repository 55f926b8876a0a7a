// A tar stream's unit, for its writer (tar.ts) and its reader (tar-read.ts): headers are one block,
// and each entry's data is followed by zeros up to the next block.
export const BLOCK = 512;

/** How many zero bytes follow `size` bytes of data. */
export const paddingOf = (size: number) => (BLOCK - (size % BLOCK)) % BLOCK;
