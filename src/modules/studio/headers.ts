// Security headers of the app's HTML: scripts only from our origin (the Telegram Login Widget's
// script and frame are the one exception, and only in messenger_widget mode), no framing.
import { htmlSecurityHeaders } from "../../http/security-headers";

export function studioHeaders(widget: boolean): Record<string, string> {
  return htmlSecurityHeaders({
    scriptSrc: widget ? ["https://telegram.org"] : [],
    // React Flow positions nodes with style attributes.
    styleAttributes: true,
    imgSrc: widget ? ["https://t.me", "https://telegram.org"] : [],
    frameSrc: widget ? ["https://oauth.telegram.org"] : [],
  });
}
