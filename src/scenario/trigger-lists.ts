// The values the reaction and member triggers match (docs/nodes/triggers.md "Reactions, members and
// join requests"): the compiler checks a scenario against them and the editor's forms offer them.
// Pure, so the Studio bundles it.

/** What member_trigger tells apart. */
export const MEMBER_EVENTS = ["joined", "left", "promoted", "demoted", "blocked", "unblocked"];

/**
 * The emoji a user can react with (the Bot API's ReactionTypeEmoji), written exactly as Telegram
 * sends them: the trigger compares the text, so "❤" without a variation selector.
 */
export const REACTION_EMOJI = [
  "👍", "👎", "❤", "🔥", "🥰", "👏", "😁", "🤔", "🤯", "😱", "🤬", "😢", "🎉", "🤩", "🤮", "💩", "🙏", "👌", "🕊", "🤡",
  "🥱", "🥴", "😍", "🐳", "❤‍🔥", "🌚", "🌭", "💯", "🤣", "⚡", "🍌", "🏆", "💔", "🤨", "😐", "🍓", "🍾", "💋", "🖕", "😈",
  "😴", "😭", "🤓", "👻", "👨‍💻", "👀", "🎃", "🙈", "😇", "😨", "🤝", "✍", "🤗", "🫡", "🎅", "🎄", "☃", "💅", "🤪", "🗿",
  "🆒", "💘", "🙉", "🦄", "😘", "💊", "🙊", "😎", "👾", "🤷‍♂", "🤷", "🤷‍♀", "😡",
];

/**
 * A reaction emoji as Telegram sends it: without the variation selector U+FE0F that a keyboard's
 * "❤️" carries (the trigger compares the text, so "❤️" never matched the "❤" that arrives).
 */
export const reactionEmoji = (e: string) => e.replace(/\uFE0F/g, "");

/** A list field as strings: an array, or one value per line / comma (both are the format). */
export const listOf = (v: unknown): string[] =>
  (Array.isArray(v) ? v.map(String) : typeof v === "string" ? v.split(/[\n,]/) : []).map((s) => s.trim()).filter(Boolean);
