// The scenario of the ai_answer / psql_query / input-timeout form test (and a bot_table card) and its screenshots
// (editor-ai-psql.test.ts, ai-psql-screenshots.ts).
export const aiPsqlScenario = {
  sheets: [
    {
      id: "s1",
      name: "Main",
      nodes: [
        { id: "ask", type: "ai_answer", position: { x: 0, y: 0 }, data: { aiBaseUrl: "https://api.openai.com/v1", aiModel: "gpt-4o-mini", aiApiKeyEnv: "", aiSystemPrompt: "You help {first_name}.", aiMemoryTurns: 5, aiSendAnswer: true } },
        { id: "orders", type: "psql_query", position: { x: 0, y: 300 }, data: { query: "SELECT * FROM orders", connectionSource: "builtin", saveResultTo: "rows" } },
        { id: "oops", type: "message", position: { x: 400, y: 0 }, data: { messageText: "Sorry: {ai_error}" } },
        { id: "name", type: "input", position: { x: 400, y: 300 }, data: { inputPrompt: "Your name?", inputVariable: "name" } },
        { id: "keep", type: "bot_table", position: { x: 800, y: 0 }, data: { tableName: "orders", operation: "insert", row: { item: "{item}" }, saveResultTo: "saved" } },
      ],
      edges: [],
    },
  ],
};
