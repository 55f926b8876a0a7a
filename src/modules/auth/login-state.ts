// The Studio's widget flow is bound to the browser that began it (docs/security.md "Login"): the
// login page asks for a state cookie before it shows the widget, and a browser's widget login is
// accepted only with that cookie. Stateless: issue time, random part and an HMAC of both.
import { hmacHex, randomBase62, safeEqual } from "../../lib/crypto";

export const LOGIN_STATE_COOKIE = "login_state";
/** Time to click the widget and confirm in the messenger; a slower login starts again. */
export const LOGIN_STATE_TTL_S = 30 * 60;

export class LoginState {
  constructor(private readonly secret: string) {}

  private sign(body: string) {
    return hmacHex(this.secret, `login-state:${body}`);
  }

  issue(nowS = Math.floor(Date.now() / 1000)): string {
    const body = `${nowS}.${randomBase62(16)}`;
    return `${body}.${this.sign(body)}`;
  }

  /** A state this server issued less than LOGIN_STATE_TTL_S ago. */
  valid(value: unknown, nowS = Math.floor(Date.now() / 1000)): boolean {
    if (typeof value !== "string" || value.length > 200) return false;
    const dot = value.lastIndexOf(".");
    if (dot <= 0) return false;
    const body = value.slice(0, dot);
    if (!safeEqual(value.slice(dot + 1), this.sign(body))) return false;
    const issued = Number(body.split(".")[0]);
    return Number.isSafeInteger(issued) && nowS - issued <= LOGIN_STATE_TTL_S && issued - nowS <= 60;
  }
}
