// Scenarios for the logic and data node family (bot-logic-data.test.ts): every set_variable mode,
// inline expressions (also hostile ones), condition operators, http_request, loop, parallel_split,
// convert_file, and scenario data that fails at run time.
import { doc, node } from "./harness";

const say = (id: string, text: string, next?: string) =>
  node(id, "message", { messageText: text, ...(next ? { enableAutoTransition: true, autoTransitionTo: next } : {}) });
const command = (name: string, target: string) => node(`cmd-${name}`, "command_trigger", { command: `/${name}`, autoTransitionTo: target });
const set = (id: string, next: string, ...assignments: Record<string, unknown>[]) =>
  node(id, "set_variable", { assignments: assignments.map((a, i) => ({ id: `${id}-${i}`, ...a })), autoTransitionTo: next });
const http = (id: string, next: string | undefined, data: Record<string, unknown>) =>
  node(id, "http_request", { httpRequestTimeout: 5, ...data, autoTransitionTo: next });
const br = (operator: string, value: string, target: string, extra: Record<string, unknown> = {}) => ({ id: target, operator, value, target, ...extra });

export const logicDataScenario = doc(
  // ── set_variable: every mode ──
  command("vars", "sv"),
  set(
    "sv",
    "sv-show",
    { variable: "name", value: "  Ann Lee  " }, // no mode: the reference's default "text"
    { variable: "trimmed", value: "{name}", mode: "trim" },
    { variable: "up", value: "{trimmed}", mode: "uppercase" },
    { variable: "low", value: "{trimmed}", mode: "lowercase" },
    { variable: "len", value: "{trimmed}", mode: "length" },
    { variable: "last", value: "{trimmed}", mode: "split_get", separator: " ", maxValue: "1" },
    { variable: "sub", value: "{trimmed}", mode: "substring", startIndex: "0", endIndex: "3" },
    { variable: "repl", value: "a-b-c", mode: "text" },
    { variable: "repl", value: "-", mode: "str_replace", replaceWith: "+" },
    { variable: "num", value: "order 42 ok", mode: "extract_number" },
    { variable: "big", value: "5000000", mode: "format_number" },
    { variable: "dur", value: "3725", mode: "format_duration" },
    { variable: "calc", value: "{num} * 2 + 1", mode: "expression" },
    { variable: "json", value: '{"a":{"b":[10,20]}}', mode: "text" },
    { variable: "jg", value: "{json}", mode: "json_get", jsonPath: "a.b.1" },
    { variable: "ai", value: '["x","y","z"]', mode: "array_item", maxValue: "2" },
    { variable: "list", value: '{"n":"p","rate":5}', mode: "json_push" },
    { variable: "list", value: '{"n":"{trimmed}","rate":9}', mode: "json_push" },
    { variable: "listlen", value: "{list}", mode: "length" },
    { variable: "cat", value: "{list}", mode: "array_concat", concatWith: '["q"]' },
    { variable: "catlen", value: "{cat}", mode: "length" },
    { variable: "board", value: "{list}", mode: "text" },
    { variable: "board", value: "🔸 {item.n}={item.rate};", mode: "json_format", lookupField: "rate" },
    { variable: "cond", value: "", mode: "conditional", conditionVariable: "{num}", conditionOperator: "greater_than", conditionValue: "40", trueValue: "big {num}", falseValue: "small" },
    { variable: "rnd", value: "5", mode: "random", maxValue: "5" },
    { variable: "rnd2", value: "1", mode: "random", maxValue: "6" },
    { variable: "pick", value: "solo", mode: "random_item" },
    { variable: "ts", value: "", mode: "timestamp" },
    { variable: "table.prices", value: '[{"sku":"a","price":"1"},{"sku":"b","price":"2"}]', mode: "text" },
    { variable: "sku", value: "b", mode: "text" },
    { variable: "price", value: "", mode: "lookup", lookupTable: "prices", lookupField: "price", lookupWhere: [{ field: "sku", value: "{sku}" }] },
    { variable: "skipped", value: "yes", mode: "text", skipIfEmpty: "nothing_here" },
    { variable: "code", value: "code: AB-12", mode: "regex_extract", pattern: "([A-Z]+)-(\\d+)", regexGroup: "2" },
    { variable: "dyn_{sku}", value: "named by a template", mode: "text" },
  ),
  say(
    "sv-show",
    "[{name}] [{trimmed}] {up} {low} {len} {last} {sub} {repl} {num} {big} {dur} {calc} {jg} {ai} {listlen} {catlen} " +
      "{board} {cond} {rnd} {pick} {price} [{skipped}] {code} {dyn_b}|{rnd2}|{ts}",
  ),

  // ── inline expressions, hostile ones included ──
  command("expr", "ex-set"),
  set("ex-set", "ex-show", { variable: "age", value: "20" }, { variable: "items", value: '["a","b"]' }, { variable: "user", value: '{"name":"Zed"}' }),
  say(
    "ex-show",
    "sum={=2+3*4} cond={=age > 18 ? 'adult' : 'kid'} f={=round(10/3, 2)} len={=len(items)} m={=items[1]} obj={=user.name} " +
      "p={=0.1+0.2} s={=upper(user.name) + '!'} " +
      "h1=[{=constructor}] h2=[{=items.constructor}] h3=[{=user.__proto__}] h4=[{=items.constructor.constructor('return 1')()}] " +
      "h5=[{=process}] h6=[{=eval('1')}] bad=[{=1 +}]",
  ),

  // ── condition operators on an answer ──
  command("cond", "c-ask"),
  node("c-ask", "input", { inputVariable: "v", inputType: "text", inputTargetNodeId: "c-test" }),
  node("c-test", "condition", {
    variable: "v",
    branches: [
      br("else", "", "r-other"), // placed first: still the fallback
      br("starts_with", "pre", "r-starts"),
      br("ends_with", "FIN", "r-ends"),
      br("matches_regex", "", "r-three", { valueRegex: "^\\d{3}$" }),
      br("divisible_by", "7", "r-div7"),
      br("is_even", "", "r-even"),
      br("is_odd", "", "r-odd"),
      br("not_contains", "zzz", "r-noz"),
    ],
  }),
  ...["other", "starts", "ends", "three", "div7", "even", "odd", "noz"].map((r) => say(`r-${r}`, `${r}: {v}`)),
  command("who", "who-test"),
  node("who-test", "condition", {
    branches: [
      br("is_group", "", "w-group"),
      br("is_bot", "", "w-bot"),
      br("is_premium", "", "w-premium"),
      br("is_admin", "", "w-admin"),
      br("is_not_subscribed", "@news_chan", "w-notsub"),
      br("is_subscribed", "@news_chan, @other_chan", "w-sub", { subscriptionMode: "all" }),
      br("is_private", "", "w-private"),
    ],
  }),
  ...["group", "bot", "premium", "admin", "notsub", "sub", "private"].map((r) => say(`w-${r}`, `who: ${r}`)),

  // ── http_request ──
  command("http", "h1"),
  http("h1", "h1-show", {
    httpRequestUrl: "{API_BASE}/items",
    httpRequestQueryParams: '{"q":"{first_name}"}',
    httpRequestAuthType: "bearer",
    httpRequestAuthBearerToken: "{SECRET_KEY}",
    httpRequestResponseVariable: "r1",
    httpRequestStatusVariable: "st1",
    httpRequestResponseJsonPath: "items.1.name",
    httpRequestResponseExtractTo: "second",
  }),
  say("h1-show", "st={st1} first={r1.items.0.name} n={r1.items.length} second={second}", "h2"),
  http("h2", "h2-show", {
    httpRequestUrl: "{API_BASE}/echo",
    httpRequestMethod: "POST",
    httpRequestHeaders: '{"X-Trace": "t-{user_id}"}',
    httpRequestBody: '{"name": "{first_name}", "quote": "{tricky}", "n": {=1+1}}',
    httpRequestAuthType: "basic",
    httpRequestAuthBasicUsername: "u",
    httpRequestAuthBasicPassword: "{SECRET_KEY}",
    httpRequestResponseVariable: "r2",
  }),
  say("h2-show", "{r2.method} {r2.json.name}|{r2.json.quote}|{r2.json.n} {r2.auth} {r2.trace} {r2.type}", "h3"),
  http("h3", "h3-show", {
    httpRequestUrl: "{API_BASE}/echo",
    httpRequestMethod: "PUT",
    httpRequestBodyFormat: "form-urlencoded",
    httpRequestBody: '{"a": "1 2", "b": "{first_name}"}',
    httpRequestAuthType: "header",
    httpRequestAuthHeaderName: "X-Key",
    httpRequestAuthHeaderValue: "{SECRET_KEY}",
    httpRequestResponseVariable: "r3",
  }),
  say("h3-show", "{r3.method} {r3.raw} {r3.xkey}", "h4"),
  http("h4", "h4-show", {
    httpRequestUrl: "{API_BASE}/echo",
    httpRequestMethod: "DELETE",
    httpRequestAuthType: "query",
    httpRequestAuthQueryName: "key",
    httpRequestAuthQueryValue: "{SECRET_KEY}",
    httpRequestResponseFormat: "text",
    httpRequestResponseVariable: "r4",
  }),
  say("h4-show", "text={r4}", "h5"),
  http("h5", "h5-show", {
    httpRequestUrl: "{API_BASE}/echo",
    httpRequestMethod: "PATCH",
    httpRequestBodyFormat: "raw",
    httpRequestHeaders: '{"Content-Type": "text/plain"}',
    httpRequestBody: "raw {first_name}",
    httpRequestResponseVariable: "r5",
    httpRequestStatusVariable: "st5",
  }),
  say("h5-show", "{r5.method} {r5.raw} {r5.type} {st5}", "h6"),
  http("h6", "h6-send", { httpRequestUrl: "{API_BASE}/picture.png", httpRequestResponseVariable: "pic" }),
  node("h6-send", "document", { documentUrl: "{pic}", messageText: "file {pic}", enableAutoTransition: true, autoTransitionTo: "h7" }),
  http("h7", "h7-show", { httpRequestUrl: "https://api.telegram.org/bot{bot_token}/getMe", httpRequestResponseVariable: "me" }),
  say("h7-show", "me={me.result.username} ok={me.ok}"),

  // ── http_request paging ──
  command("pages", "pg1"),
  http("pg1", "pg1-show", {
    httpRequestUrl: "{API_BASE}/pages?limit=10&offset={pg_offset}",
    httpRequestEnablePagination: true,
    httpRequestPaginationMode: "interactive",
    httpRequestPaginationOffsetVar: "pg_offset",
    httpRequestPaginationLimit: 10,
    httpRequestResponseVariable: "pg",
  }),
  say("pg1-show", "{pg.items.0} next={pg.nextOffset} prev={pg.prevOffset} page={pg.currentPage}/{pg.totalPages}", "pg2"),
  set("pg2", "pg3", { variable: "pg_offset", value: "20" }),
  http("pg3", "pg3-show", {
    httpRequestUrl: "{API_BASE}/pages?limit=10&offset={pg_offset}",
    httpRequestEnablePagination: true,
    httpRequestPaginationOffsetVar: "pg_offset",
    httpRequestPaginationLimit: 10,
    httpRequestResponseVariable: "pg",
  }),
  say("pg3-show", "{pg.items.0} next=[{pg.nextOffset}] prev={pg.prevOffset} page={pg.currentPage}/{pg.totalPages}", "pg4"),
  http("pg4", "pg4-show", {
    httpRequestUrl: "{API_BASE}/pages",
    httpRequestEnablePagination: true,
    httpRequestPaginationMode: "fetch_all",
    httpRequestPaginationLimit: 10,
    httpRequestResponseVariable: "all",
  }),
  say("pg4-show", "all={all.count} items={all.items.length} last={all.items.24}"),

  // ── loop, parallel_split, convert_file ──
  command("loop", "lp-set"),
  set("lp-set", "lp", { variable: "rows", value: '[{"n":"a"},{"n":"b"},{"n":"c"}]' }),
  node("lp", "loop", { sourceVariable: "rows", itemVariable: "it", indexVariable: "i", maxIterations: 2, autoTransitionTo: "lp-body", afterLoopTo: "lp-done" }),
  say("lp-body", "item {i}: {it.n}"),
  say("lp-done", "done after {i}"),
  command("slowloop", "slp"),
  node("slp", "loop", { sourceVariable: "rows", itemVariable: "it", indexVariable: "i", delaySeconds: 0.05, autoTransitionTo: "lp-body", afterLoopTo: "lp-done" }),
  command("par", "par"),
  node("par", "parallel_split", {
    parallelBranches: [
      { id: "b1", label: "one", target: "par-a" },
      { id: "b2", label: "two", target: "par-b" },
    ],
    maxConcurrent: 5,
  }),
  say("par-a", "branch A"),
  say("par-b", "branch B"),
  command("csv", "csv-set"),
  set("csv-set", "csv", { variable: "people", value: '[{"name":"Ann","city":"Oslo, NO"},{"name":"Bob","city":"Rome \\"old\\""}]' }),
  node("csv", "convert_file", {
    convertFileInputVariable: "people",
    convertFileFormat: "csv",
    convertFileFileName: "people_{user_id}.csv",
    convertFileOutputVariable: "export",
    convertFileIncludeHeaderRow: true,
    autoTransitionTo: "csv-send",
  }),
  node("csv-send", "document", { documentUrl: "{export}", enableAutoTransition: true, autoTransitionTo: "json" }),
  node("json", "convert_file", { convertFileInputVariable: "people", convertFileFormat: "json", convertFileFileName: "people.json", convertFileOutputVariable: "export2", autoTransitionTo: "json-send" }),
  node("json-send", "document", { documentUrl: "{export2}" }),
  // the CSV's first bytes, as the file object holds them (base64)
  command("csvhead", "csvh"),
  node("csvh", "convert_file", { convertFileInputVariable: "people", convertFileFormat: "csv", convertFileFileName: "h.csv", convertFileOutputVariable: "export3", autoTransitionTo: "csvh-show" }),
  say("csvh-show", "{export3.data}"),

  // ── hostile variable names ──
  command("proto", "pr-ask"),
  node("pr-ask", "input", { inputVariable: "__proto__", inputType: "text", inputTargetNodeId: "pr-set" }),
  set("pr-set", "pr-show", { variable: "constructor", value: "x" }, { variable: "safe", value: "{=__proto__}" }),
  say("pr-show", "got {__proto__} [{safe}] {first_name}"),

  // ── bad scenario data: logged, the bot keeps serving ──
  command("bad", "bad1"),
  http("bad1", "bad1-show", { httpRequestUrl: "http://127.0.0.1:1/nothing", httpRequestStatusVariable: "bs", httpRequestResponseVariable: "br" }),
  say("bad1-show", "unreachable: {bs} {br.error}", "bad2"),
  http("bad2", "bad2-show", { httpRequestUrl: "{API_BASE}/items", httpRequestHeaders: "{not json", httpRequestStatusVariable: "bs2" }),
  say("bad2-show", "headers: {bs2}", "bad3"),
  http("bad3", "bad3-show", { httpRequestUrl: "{API_BASE}/slow", httpRequestTimeout: 1, httpRequestStatusVariable: "bs3", httpRequestResponseVariable: "br3" }),
  say("bad3-show", "slow: {bs3} {br3.error}", "bad4"),
  set("bad4", "bad5", { variable: "notalist", value: "plain text" }),
  node("bad5", "loop", { sourceVariable: "notalist", autoTransitionTo: "lp-body", afterLoopTo: "bad-done" }),
  say("bad-done", "still here"),
);
