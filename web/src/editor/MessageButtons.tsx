// The one way to give a message buttons: "Add button". The first button makes them inline
// buttons under the message; how they show (inline or a reply keyboard), their rows and the reply
// keyboard's options appear once there are buttons. A linked keyboard node (imported files) shows
// only when the message has one.
import { useTranslation } from "react-i18next";
import { ButtonsEditor, Check, LayoutEditor, Row, Target, type FieldCtx } from "./fields";

const hasButtons = (d: FieldCtx["data"]) => Array.isArray(d.buttons) && d.buttons.length > 0;

export function MessageButtons({ ctx }: { ctx: FieldCtx }) {
  const { t } = useTranslation();
  const kind = String(ctx.data.keyboardType ?? "none");
  // adding the first button turns buttons on; removing the last one turns them off
  const buttonsCtx: FieldCtx = {
    ...ctx,
    set: (patch) => {
      const list = patch.buttons;
      if (Array.isArray(list) && list.length > 0 && (kind === "none" || kind === "")) ctx.set({ ...patch, keyboardType: "inline" });
      else if (Array.isArray(list) && list.length === 0 && kind !== "none") ctx.set({ ...patch, keyboardType: "none" });
      else ctx.set(patch);
    },
  };
  const shown = hasButtons(ctx.data);
  return (
    <>
      <ButtonsEditor ctx={buttonsCtx} />
      {shown && (
        <Row label={t("editor.props.buttonsAs")}>
          {(id) => (
            <select id={id} value={kind === "reply" ? "reply" : "inline"} onChange={(e) => ctx.set({ keyboardType: e.target.value })}>
              <option value="inline">{t("editor.props.buttonsInline")}</option>
              <option value="reply">{t("editor.props.buttonsReply")}</option>
            </select>
          )}
        </Row>
      )}
      {shown && <LayoutEditor ctx={ctx} />}
      {shown && kind === "reply" && (
        <>
          <Check ctx={ctx} k="oneTimeKeyboard" label={t("editor.props.oneTime")} />
          <Check ctx={ctx} k="resizeKeyboard" label={t("editor.props.resize")} />
        </>
      )}
      {typeof ctx.data.keyboardNodeId === "string" && ctx.data.keyboardNodeId !== "" && <Target ctx={ctx} k="keyboardNodeId" label={t("editor.props.keyboardNode")} />}
    </>
  );
}
