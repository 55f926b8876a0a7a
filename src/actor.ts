// Who is acting on a request: the user a session cookie or a PAT resolves to. Known to the HTTP
// layer (src/http/auth.ts resolves it) and to the auth feature (which issues what it is resolved
// from), so it lives under neither.
export interface Actor {
  userId: number;
  via: "session" | "pat";
  scopes: string[];
}

/** The session cookie's name (the older platform's, so its clients keep their sessions). */
export const SESSION_COOKIE = "connect.sid";
