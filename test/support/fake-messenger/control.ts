// HTTP remote control for tests that run in another process than the fake (started with
// `bun test/support/fake-messenger.ts`). Mirrors the FakeMessenger methods:
//   POST   /__control/bots                     {token?, id?, username?, firstName?, hasPhoto?} -> FakeBot
//   DELETE /__control/<token>                  removeBot
//   POST   /__control/<token>/text             {from, text}              -> Update
//   POST   /__control/<token>/photo            {from, caption?}          -> Update
//   POST   /__control/<token>/document         {from, fileName?, mimeType?} -> Update
//   POST   /__control/<token>/contact          {from, phone}             -> Update
//   POST   /__control/<token>/press            {from, data, messageId?}  -> Update
//   POST   /__control/<token>/update           raw update
//   GET    /__control/<token>/calls?method=    -> RecordedCall[]
//   GET    /__control/<token>/sent?chat_id=    -> RecordedCall[]
//   GET    /__control/<token>/wait-sent?chat_id=&count=&timeout_ms= -> RecordedCall[] (408 on timeout)
//   GET    /__control/<token>/webhook          -> {url, secretToken?} | null
//   POST   /__control/<token>/clear, POST /__control/clear
//   POST   /__control/users/<id>/photo         {hasPhoto}
import type { FakeMessenger } from "../fake-messenger";

type Fake = FakeMessenger & { server: { timeout(req: Request, seconds: number): void } };

export async function handleControl(fake: Fake, req: Request, url: URL): Promise<Response> {
  const parts = url.pathname.slice("/__control/".length).split("/").map(decodeURIComponent);
  const body = req.method === "POST" ? await req.json().catch(() => ({})) : {};
  const q = url.searchParams;
  const num = (name: string) => (q.get(name) === null ? undefined : Number(q.get(name)));
  try {
    if (parts[0] === "bots" && req.method === "POST") return Response.json(fake.addBot(body));
    if (parts[0] === "clear" && req.method === "POST") return Response.json(fake.clear() ?? true);
    if (parts[0] === "users" && parts[2] === "photo") return Response.json(fake.setUserPhoto(Number(parts[1]), body.hasPhoto !== false) ?? true);
    const [token, action] = parts as [string, string | undefined];
    if (action === undefined && req.method === "DELETE") return Response.json(fake.removeBot(token) ?? true);
    switch (`${req.method} ${action}`) {
      case "POST text":
        return Response.json(fake.sendText(token, body.from, body.text));
      case "POST photo":
        return Response.json(fake.sendPhoto(token, body.from, body));
      case "POST document":
        return Response.json(fake.sendDocument(token, body.from, body));
      case "POST contact":
        return Response.json(fake.sendContact(token, body.from, body.phone));
      case "POST press":
        return Response.json(fake.pressButton(token, body.from, body.data, body.messageId));
      case "POST update":
        return Response.json(fake.pushUpdate(token, body) ?? true);
      case "GET calls":
        return Response.json(fake.calls(token, q.get("method") ?? undefined));
      case "GET sent":
        return Response.json(fake.sent(token, num("chat_id")));
      case "GET wait-sent": {
        fake.server.timeout(req, 0);
        try {
          return Response.json(await fake.waitForSent(token, num("chat_id")!, num("count") ?? 1, num("timeout_ms") ?? 5000));
        } catch (e) {
          return Response.json({ error: (e as Error).message }, { status: 408 });
        }
      }
      case "GET webhook":
        return Response.json(fake.webhookOf(token));
      case "POST clear":
        return Response.json(fake.clear(token) ?? true);
    }
    return Response.json({ error: `unknown control route ${req.method} ${url.pathname}` }, { status: 404 });
  } catch (e) {
    return Response.json({ error: (e as Error).message }, { status: 400 });
  }
}
