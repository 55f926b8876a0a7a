// A small scenario in today's format, used by the runtime tests: /start greets with an inline
// button; pressing it (or typing "дальше") leads to a second message with a reply keyboard.
export const greeterScenario = {
  version: 2,
  sheets: [
    {
      id: "sheet-1",
      name: "Main",
      nodes: [
        {
          id: "start",
          type: "start",
          position: { x: 0, y: 0 },
          data: { command: "/start", messageText: "Привет, {first_name}!", keyboardType: "inline", buttons: [{ id: "b1", text: "Дальше", action: "goto", target: "second" }] },
        },
        { id: "trigger", type: "text_trigger", position: { x: 0, y: 200 }, data: { textSynonyms: ["дальше"], textMatchType: "exact", autoTransitionTo: "second" } },
        {
          id: "second",
          type: "message",
          position: { x: 300, y: 0 },
          data: { messageText: "Второй шаг", keyboardType: "reply", resizeKeyboard: true, buttons: [{ id: "b2", text: "Снова", action: "goto", target: "start" }] },
        },
      ],
      edges: [],
    },
  ],
};
