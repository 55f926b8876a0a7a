// Synthetic scenarios for the codegen bench and its byte-identity test: blocks of ten nodes chained
// so that everything is reachable, spread over sheets of 200 nodes.

/** A block of ten nodes using every core type, chained so that everything is reachable. */
export function block(i: number, next: string) {
  const id = (s: string) => `${s}-${i}`;
  const buttons = [
    { id: id("b1"), text: `Yes ${i}`, action: "goto", target: id("ask") },
    { id: id("b2"), text: `No ${i}`, action: "goto", target: next },
    { id: id("b3"), text: "Help", action: "command", target: "/help" },
  ];
  return [
    { id: id("cmd"), type: "command_trigger", data: { command: `/step${i}`, description: `Step ${i}`, showInMenu: i < 50, autoTransitionTo: id("menu") } },
    { id: id("menu"), type: "message", data: { messageText: `<b>Step ${i}</b> for {first_name}`, formatMode: "html", keyboardType: "inline", buttons, keyboardLayout: { rows: [{ buttonIds: [id("b1"), id("b2")] }, { buttonIds: [id("b3")] }], columns: 2 } } },
    { id: id("ask"), type: "message", data: { messageText: "Your answer?", keyboardNodeId: id("kb"), enableAutoTransition: true, autoTransitionTo: id("in") } },
    { id: id("kb"), type: "keyboard", data: { keyboardType: "reply", buttons: [{ id: id("skip"), text: "Skip", action: "goto", target: id("check"), skipDataCollection: true }], resizeKeyboard: true } },
    { id: id("in"), type: "input", data: { inputVariable: `answer${i}`, inputType: "text", inputTargetNodeId: id("set") } },
    { id: id("set"), type: "set_variable", data: { assignments: [{ variable: "count", value: "", mode: "increment" }, { variable: "n", value: "{message_text}", mode: "regex_extract", pattern: "(\\d+)", regexGroup: 1 }], autoTransitionTo: id("check") } },
    { id: id("check"), type: "condition", data: { variable: "n", branches: [{ id: "a", operator: "greater_than", value: "10", target: id("wait") }, { id: "b", operator: "else", value: "", target: next }] } },
    { id: id("wait"), type: "delay", data: { delaySeconds: 1, autoTransitionTo: id("photo") } },
    { id: id("photo"), type: "photo", data: { imageUrl: `https://example.com/${i}.jpg`, mediaCaption: `Picture {n}`, enableConditionalMessages: true, conditionalMessages: [{ id: "c", condition: "user_data_exists", variableName: "n", messageText: "Again {n}" }] } },
    { id: id("trigger"), type: "text_trigger", data: { textSynonyms: [`go ${i}`, `step ${i}`], textMatchType: "exact", autoTransitionTo: id("menu") } },
  ];
}

/** Ten nodes of the logic and data family (http_request, loop, bot_table, psql_query, ...), chained. */
export function logicBlock(i: number, next: string) {
  const id = (s: string) => `${s}-${i}`;
  const modes = ["text", "expression", "json_get", "format_number", "split_get", "conditional", "lookup", "random", "length", "array_concat"];
  return [
    { id: id("cmd"), type: "command_trigger", data: { command: `/logic${i}`, autoTransitionTo: id("menu") } },
    { id: id("menu"), type: "http_request", data: { httpRequestUrl: `https://api.example.com/items/${i}?u={user_id}`, httpRequestMethod: "POST", httpRequestHeaders: '{"X-N": "{n}"}', httpRequestBody: '{"q": "{message_text}", "n": {=n + 1}}', httpRequestAuthType: "bearer", httpRequestAuthBearerToken: "{API_KEY}", httpRequestResponseVariable: "resp", httpRequestStatusVariable: "st", autoTransitionTo: id("check") } },
    { id: id("check"), type: "condition", data: { variable: "st", branches: [{ id: "a", operator: "divisible_by", value: "100", target: id("set") }, { id: "b", operator: "starts_with", value: "4", target: id("sql") }, { id: "c", operator: "else", value: "", target: next }] } },
    { id: id("set"), type: "set_variable", data: { assignments: modes.map((mode, k) => ({ id: `a${k}`, variable: `v${k}`, value: "{resp.items}", mode, jsonPath: "0.name", maxValue: "9", separator: ",", conditionVariable: "{st}", conditionValue: "200", trueValue: "ok", falseValue: "no", lookupTable: "orders", lookupField: "qty", concatWith: "{v0}" })), autoTransitionTo: id("loop") } },
    { id: id("loop"), type: "loop", data: { sourceVariable: "resp.items", itemVariable: "it", maxIterations: 5, autoTransitionTo: id("body"), afterLoopTo: id("table") } },
    { id: id("body"), type: "message", data: { messageText: "Item {it.name}: {=round(it.price * 1.2, 2)} ({=len(resp.items)})" } },
    { id: id("table"), type: "bot_table", data: { tableName: "orders", operation: "upsert", key: "item", row: { item: "{it.name}", qty: "{v7}" }, autoTransitionTo: id("sql") } },
    { id: id("sql"), type: "psql_query", data: { query: "SELECT item, qty FROM orders WHERE qty > {n} ORDER BY qty DESC LIMIT 10", resultFormat: "text", textTemplate: "{item}: {qty}", saveResultTo: "report", autoTransitionTo: id("file") } },
    { id: id("file"), type: "convert_file", data: { convertFileInputVariable: "resp.items", convertFileFormat: "csv", convertFileOutputVariable: "csv", autoTransitionTo: id("split") } },
    { id: id("split"), type: "parallel_split", data: { parallelBranches: [{ id: "p1", label: "body", target: id("body") }, { id: "p2", label: "next", target: next }] } },
  ];
}

export type Block = (i: number, next: string) => { id: string; type: string; data: Record<string, unknown> }[];

export function synthetic(nodes: number, make: Block = block) {
  const blocks = Math.ceil(nodes / 10);
  const all = [];
  for (let i = 0; i < blocks; i++) all.push(...make(i, i + 1 < blocks ? `menu-${i + 1}` : "menu-0"));
  const list = all.slice(0, nodes).map((n, k) => ({ ...n, position: { x: (k % 20) * 300, y: Math.floor(k / 20) * 200 } }));
  // Several sheets, as real projects have.
  const perSheet = 200;
  const sheets = [];
  for (let s = 0; s * perSheet < list.length; s++) sheets.push({ id: `sheet-${s}`, name: `Sheet ${s}`, nodes: list.slice(s * perSheet, (s + 1) * perSheet), edges: [] });
  return { version: 2, sheets };
}
