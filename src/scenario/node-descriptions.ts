// One line per node type saying what it does, in English and Russian: the node catalogue (MCP
// resource botloom://nodes/catalogue) serves it, and the web editor's node picker shows it. The web
// app bundles this file, so it stays pure: no imports, no I/O.

export interface NodeDescription {
  en: string;
  ru: string;
}

export const NODE_DESCRIPTIONS: Record<string, NodeDescription> = {
  command_trigger: { en: "Starts when the user sends a command, such as /start.", ru: "Срабатывает, когда пользователь отправляет команду, например /start." },
  text_trigger: { en: "Starts when the user writes one of the given texts.", ru: "Срабатывает, когда пользователь пишет один из заданных текстов." },
  incoming_message_trigger: { en: "Starts on any message the user sends.", ru: "Срабатывает на любое сообщение пользователя." },
  callback_trigger: { en: "Starts when a button with the given callback data is pressed.", ru: "Срабатывает при нажатии кнопки с заданными данными callback." },
  incoming_callback_trigger: { en: "Starts on any inline button press.", ru: "Срабатывает на любое нажатие inline-кнопки." },
  outgoing_message_trigger: { en: "Starts after the bot sends a message.", ru: "Срабатывает после того, как бот отправил сообщение." },
  group_message_trigger: { en: "Starts on messages in a chosen group (support chats).", ru: "Срабатывает на сообщения в выбранной группе (чаты поддержки)." },
  schedule_trigger: { en: "Starts on a timer or at set times, without a user.", ru: "Срабатывает по таймеру или в заданное время, без пользователя." },
  message: { en: "Sends a text, optionally with buttons, and can wait for an answer.", ru: "Отправляет текст, можно с кнопками, и может ждать ответа." },
  keyboard: { en: "A set of buttons attached to a message (kept for imported files).", ru: "Набор кнопок, прикреплённый к сообщению (для импортированных файлов)." },
  input: { en: "Asks a question and saves the user's answer into a variable.", ru: "Задаёт вопрос и сохраняет ответ пользователя в переменную." },
  media: { en: "Sends several photos, videos or files as one album.", ru: "Отправляет несколько фото, видео или файлов одним альбомом." },
  photo: { en: "Sends a picture with a caption and buttons.", ru: "Отправляет картинку с подписью и кнопками." },
  video: { en: "Sends a video with a caption and buttons.", ru: "Отправляет видео с подписью и кнопками." },
  audio: { en: "Sends an audio file.", ru: "Отправляет аудиофайл." },
  document: { en: "Sends a file as a document.", ru: "Отправляет файл как документ." },
  sticker: { en: "Sends a sticker.", ru: "Отправляет стикер." },
  voice: { en: "Sends a voice message.", ru: "Отправляет голосовое сообщение." },
  animation: { en: "Sends a GIF animation.", ru: "Отправляет GIF-анимацию." },
  location: { en: "Sends a point on the map.", ru: "Отправляет точку на карте." },
  contact: { en: "Sends a phone contact card.", ru: "Отправляет карточку контакта с телефоном." },
  condition: { en: "Chooses the next step by a variable's value.", ru: "Выбирает следующий шаг по значению переменной." },
  set_variable: { en: "Sets one or more variables (text, number, expression).", ru: "Задаёт одну или несколько переменных (текст, число, выражение)." },
  loop: { en: "Repeats steps for each item of a list.", ru: "Повторяет шаги для каждого элемента списка." },
  parallel_split: { en: "Runs several branches at the same time.", ru: "Запускает несколько веток одновременно." },
  delay: { en: "Waits a while before the next step.", ru: "Ждёт заданное время перед следующим шагом." },
  http_request: { en: "Calls a web address (API) and saves the answer.", ru: "Обращается к веб-адресу (API) и сохраняет ответ." },
  bot_table: { en: "Reads or writes rows of the bot's own table.", ru: "Читает или записывает строки собственной таблицы бота." },
  psql_query: { en: "Runs an SQL query (the project's tables or an external PostgreSQL) and saves the result.", ru: "Выполняет SQL-запрос (таблицы проекта или внешний PostgreSQL) и сохраняет результат." },
  ai_answer: { en: "Asks an AI model (any OpenAI-compatible API) and sends or saves its answer.", ru: "Спрашивает ИИ-модель (любой API, совместимый с OpenAI) и отправляет или сохраняет её ответ." },
  convert_file: { en: "Turns data into a CSV or JSON file, or a file back into data.", ru: "Превращает данные в файл CSV или JSON, или файл обратно в данные." },
  edit_message: { en: "Changes the text or buttons of a message already sent.", ru: "Меняет текст или кнопки уже отправленного сообщения." },
  answer_callback_query: { en: "Shows a short notice after a button press.", ru: "Показывает короткое уведомление после нажатия кнопки." },
  broadcast: { en: "Sends a message to all (or chosen) users of the bot.", ru: "Рассылает сообщение всем (или выбранным) пользователям бота." },
  delete_message: { en: "Deletes a message in the chat.", ru: "Удаляет сообщение в чате." },
  forward_message: { en: "Forwards a message to another chat.", ru: "Пересылает сообщение в другой чат." },
  pin_message: { en: "Pins a message in the chat.", ru: "Закрепляет сообщение в чате." },
  unpin_message: { en: "Unpins a message in the chat.", ru: "Открепляет сообщение в чате." },
  create_forum_topic: { en: "Creates a topic in a forum group.", ru: "Создаёт тему в группе-форуме." },
  ban_user: { en: "Bans a user from the group.", ru: "Банит пользователя в группе." },
  unban_user: { en: "Lifts a user's ban.", ru: "Снимает бан с пользователя." },
  mute_user: { en: "Stops a user from writing for a while.", ru: "Запрещает пользователю писать на время." },
  unmute_user: { en: "Lets a muted user write again.", ru: "Снова разрешает пользователю писать." },
  kick_user: { en: "Removes a user from the group.", ru: "Удаляет пользователя из группы." },
  promote_user: { en: "Makes a user a group admin.", ru: "Делает пользователя админом группы." },
  demote_user: { en: "Takes admin rights away from a user.", ru: "Снимает с пользователя права админа." },
  admin_rights: { en: "Changes what a group admin may do.", ru: "Меняет, что может делать админ группы." },
  comment: { en: "A note on the canvas; the bot skips it.", ru: "Заметка на холсте; бот её пропускает." },
  start: { en: "Old-style /start with its own message (imported files).", ru: "Старый /start со своим сообщением (импортированные файлы)." },
  command: { en: "Old-style command with its own message (imported files).", ru: "Старая команда со своим сообщением (импортированные файлы)." },
  invoice: { en: "Sends an invoice in Telegram Stars (XTR); the bot accepts the checkout itself.", ru: "Отправляет счёт в звёздах Telegram (XTR); подтверждение оплаты бот даёт сам." },
  checkout_trigger: { en: "Runs when a user presses Pay, before the charge; a Refuse checkout node in its flow refuses.", ru: "Срабатывает при нажатии «Оплатить», до списания; узел «Отклонить оплату» в его ветке отказывает." },
  refuse_checkout: { en: "In a Checkout flow: refuses the payment with a reason the user sees.", ru: "В ветке подтверждения оплаты: отказывает с причиной, которую увидит пользователь." },
  payment_trigger: { en: "Runs when a user has paid an invoice; {payment_amount}, {payment_payload}, {payment_charge_id}.", ru: "Срабатывает после оплаты счёта; {payment_amount}, {payment_payload}, {payment_charge_id}." },
  refund_payment: { en: "Gives a Stars payment back ({payment_charge_id}).", ru: "Возвращает оплату в звёздах ({payment_charge_id})." },
  reaction_trigger: { en: "Runs when a user puts an emoji reaction on a message in the chat.", ru: "Срабатывает, когда пользователь ставит реакцию на сообщение в чате." },
  member_trigger: { en: "Runs when someone joins, leaves or is promoted in a group, or blocks or unblocks the bot.", ru: "Срабатывает, когда участник входит в группу, выходит, получает права, или блокирует и разблокирует бота." },
  join_request_trigger: { en: "Runs when someone asks to join a group or channel; answer with approve or decline.", ru: "Срабатывает на заявку на вступление в группу или канал; ответьте одобрением или отказом." },
  approve_join_request: { en: "Lets the user who asked into the group ({join_chat_id}).", ru: "Принимает пользователя, подавшего заявку, в группу ({join_chat_id})." },
  decline_join_request: { en: "Refuses the user's request to join the group ({join_chat_id}).", ru: "Отклоняет заявку пользователя на вступление в группу ({join_chat_id})." },
  webhook_trigger: { en: "Runs when an outside system (a shop, a form, a CRM) posts to the node's URL; the body's fields become variables.", ru: "Срабатывает, когда внешняя система (магазин, форма, CRM) шлёт запрос на адрес узла; поля тела становятся переменными." },
};

/** The one-line description of a type in a language ("en" when the language has none). */
export const describeNode = (type: string, lang: string): string => {
  const d = NODE_DESCRIPTIONS[type];
  return d ? (lang.startsWith("ru") ? d.ru : d.en) : "";
};
