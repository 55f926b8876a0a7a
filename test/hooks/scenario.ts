// The scenario the hook tests run: /start greets, webhook_trigger "paid" thanks for an order.
const node = (id: string, type: string, data: Record<string, unknown>) => ({ id, type, position: { x: 0, y: 0 }, data });

/** "paid" reads the user from customer.telegram_id; every other top-level scalar becomes a variable. */
export const hookScenario = {
  sheets: [{
    id: "s", name: "S", edges: [], nodes: [
      node("start", "command_trigger", { command: "/start", autoTransitionTo: "hi" }),
      node("hi", "message", { messageText: "hi {first_name}" }),
      node("paid", "webhook_trigger", { userField: "customer.telegram_id", autoTransitionTo: "thanks" }),
      node("thanks", "message", { messageText: "Order {order} paid: {total}, thanks {first_name}" }),
    ],
  }],
};

