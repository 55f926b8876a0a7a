// Buttons drawn from the editor's actions table (actions.ts): the toolbar's groups, and single
// buttons elsewhere (the canvas controls, the panel toggles). They read the action's state and
// runner from the editor screen through a React context, so no callback travels in props or node data.
import { createContext, Fragment, useContext, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { ToolIcon } from "./icons";
import { action, enabled, keysText, runAction, shown, TOOLBAR, type ActionContext, type ActionView } from "./actions";

export const ActionsContext = createContext<{ ctx: ActionContext; view: ActionView } | null>(null);

function useActions() {
  const a = useContext(ActionsContext);
  if (!a) throw new Error("an action button outside the editor");
  return a;
}

/**
 * One action's button. `as` draws it with another component of the same props (React Flow's
 * ControlButton); `children` replaces its text or icon where the place wants its own look.
 */
export function ActionButton({ id, className, children, as: As = "button" }: { id: string; className?: string; children?: ReactNode; as?: "button" | ((p: React.ButtonHTMLAttributes<HTMLButtonElement>) => ReactNode) }) {
  const { t } = useTranslation();
  const { ctx, view } = useActions();
  const a = action(id);
  if (!shown(a, view)) return null;
  const active = a.active?.(view) ?? false;
  const label = t(a.labelKey);
  const keys = keysText(a);
  const classes = [className, a.primary ? "primary" : "", active ? "active" : ""].filter(Boolean).join(" ");
  return (
    <As
      type="button"
      data-action={a.id}
      className={classes || undefined}
      disabled={!enabled(a, view)}
      aria-pressed={a.toggle ? active : undefined}
      aria-label={(a.icon || a.svg) && !children ? label : undefined}
      title={active && a.activeLabelKey ? t(a.activeLabelKey) : a.svg ? (keys ? `${label} (${keys})` : label) : keys || (a.icon ? label : undefined)}
      onClick={() => runAction(a, ctx, view)}
      {...a.attrs}
    >
      {children ?? (a.svg ? <ToolIcon name={a.svg} /> : a.icon?.(view) ?? label)}
    </As>
  );
}

/**
 * The toolbar's action buttons by TOOLBAR's groups. A group stays on one line when the toolbar
 * wraps (the Save button never leaves its commit message); `before` and `after` put other controls
 * ahead of a button and after it, inside its group (Save's options and status go where Save goes).
 */
export function ToolbarActions({ before = {}, after = {} }: { before?: Record<string, ReactNode>; after?: Record<string, ReactNode> }) {
  const { view } = useActions();
  const groups = TOOLBAR.map((ids) => ids.filter((id) => shown(action(id), view))).filter((ids) => ids.length);
  return groups.map((ids, i) => (
    <Fragment key={ids[0]}>
      {i > 0 && <span className="ed-sep" />}
      <span className="ed-tools">
        {ids.map((id) => (
          <Fragment key={id}>
            {before[id]}
            <ActionButton id={id} />
            {after[id]}
          </Fragment>
        ))}
      </span>
    </Fragment>
  ));
}
