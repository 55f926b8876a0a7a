// Forms of the reaction and member triggers: their lists are picked from the values Telegram sends
// (docs/nodes/triggers.md), and written as the lists the JSON mode shows. A value the lists do not
// know (a file from elsewhere) stays, shown as it is, until it is removed.
import { useTranslation } from "react-i18next";
import { listOf, MEMBER_EVENTS, REACTION_EMOJI, reactionEmoji } from "../../../src/scenario/trigger-lists";
import { Target, type FieldCtx } from "./fields";

function EmojiPicker({ ctx }: { ctx: FieldCtx }) {
  const { t } = useTranslation();
  const chosen = listOf(ctx.data.emoji);
  const set = (emoji: string[]) => ctx.set({ emoji });
  return (
    <fieldset className="ed-group">
      <legend>{t("editor.props.reactions")}</legend>
      {chosen.length === 0 && <p className="muted small">{t("editor.props.anyReaction")}</p>}
      <div className="ed-chips">
        {chosen.map((e) => (
          <button key={e} type="button" className="ed-chip" aria-label={t("editor.props.removeItem", { item: e })} title={t("editor.props.removeItem", { item: e })} onClick={() => set(chosen.filter((x) => x !== e))}>
            {e} <span aria-hidden="true">✕</span>
          </button>
        ))}
      </div>
      <details className="ed-emoji-pick">
        <summary>{t("editor.props.addReaction")}</summary>
        <div className="ed-emoji-grid">
          {/* a chosen "❤️" is the "❤" Telegram sends: not offered twice */}
          {REACTION_EMOJI.filter((e) => !chosen.some((c) => reactionEmoji(c) === e)).map((e) => (
            <button key={e} type="button" aria-label={t("editor.props.addItem", { item: e })} title={t("editor.props.addItem", { item: e })} onClick={() => set([...chosen, e])}>{e}</button>
          ))}
        </div>
      </details>
    </fieldset>
  );
}

function SenderNodes({ ctx }: { ctx: FieldCtx }) {
  const { t } = useTranslation();
  const chosen = listOf(ctx.data.messageNodes);
  const set = (messageNodes: string[]) => ctx.set({ messageNodes });
  const labelOf = (id: string) => ctx.targets.find(([n]) => n === id)?.[1] ?? `${id} ?`;
  return (
    <fieldset className="ed-group">
      <legend>{t("editor.props.messageNodes")}</legend>
      {chosen.length === 0 && <p className="muted small">{t("editor.props.anyMessage")}</p>}
      <ul className="ed-picked">
        {chosen.map((id) => (
          <li key={id}>
            <span>{labelOf(id)}</span>
            <button type="button" className="ghost danger" aria-label={t("editor.props.removeItem", { item: labelOf(id) })} onClick={() => set(chosen.filter((x) => x !== id))}>✕</button>
          </li>
        ))}
      </ul>
      <select aria-label={t("editor.props.addMessageNode")} value="" onChange={(e) => e.target.value && set([...chosen, e.target.value])}>
        <option value="">{t("editor.props.addMessageNode")}</option>
        {ctx.targets.filter(([id]) => !chosen.includes(id)).map(([id, label]) => <option key={id} value={id}>{label}</option>)}
      </select>
    </fieldset>
  );
}

export function ReactionFields({ ctx }: { ctx: FieldCtx }) {
  const { t } = useTranslation();
  return (
    <>
      <EmojiPicker ctx={ctx} />
      <SenderNodes ctx={ctx} />
      <Target ctx={ctx} k="autoTransitionTo" label={t("editor.props.next")} />
    </>
  );
}

export function MemberFields({ ctx }: { ctx: FieldCtx }) {
  const { t } = useTranslation();
  const chosen = listOf(ctx.data.memberEvents);
  // the known events in their own order, then any unknown ones the file holds
  const shown = [...MEMBER_EVENTS, ...chosen.filter((e) => !MEMBER_EVENTS.includes(e))];
  const toggle = (e: string, on: boolean) => ctx.set({ memberEvents: on ? shown.filter((x) => x === e || chosen.includes(x)) : chosen.filter((x) => x !== e) });
  return (
    <>
      <fieldset className="ed-group">
        <legend>{t("editor.props.memberEvents")}</legend>
        {chosen.length === 0 && <p className="muted small">{t("editor.props.anyMemberEvent")}</p>}
        {shown.map((e) => (
          <label key={e} className="ed-check wrap">
            <input type="checkbox" checked={chosen.includes(e)} onChange={(ev) => toggle(e, ev.target.checked)} /> {t(`editor.choices.memberEvents.${e}`, { defaultValue: e })}
          </label>
        ))}
      </fieldset>
      <Target ctx={ctx} k="autoTransitionTo" label={t("editor.props.next")} />
    </>
  );
}
