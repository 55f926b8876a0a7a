// docs/api.md#limits: JSON up to 10 MB, media uploads up to 50 MB. Apart from body-limit.ts
// so that the listener (src/listener.ts) sets the server-wide cap without loading Elysia.
export const JSON_BODY_LIMIT = 10 * 1024 * 1024;
export const UPLOAD_BODY_LIMIT = 50 * 1024 * 1024;
/** Multipart overhead on top of a 50 MB file. */
export const SERVER_BODY_LIMIT = UPLOAD_BODY_LIMIT + 1024 * 1024;
