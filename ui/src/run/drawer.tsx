// A side drawer over the right of the page (the page stays usable). Escape closes it. Opening it
// moves the focus to its title, so the keyboard is in the drawer rather than dozens of Tabs away
// in the table below it; closing it gives the focus back to what opened it.
import { type ReactNode, useEffect, useRef } from "react";
import { Icon } from "../components/icons.tsx";

export function Drawer({
  title,
  children,
  onClose,
  label,
  focusKey,
}: {
  title: ReactNode;
  children: ReactNode;
  onClose: () => void;
  label: string;
  /** What the drawer shows (a task id, a node): showing another one takes the focus again. */
  focusKey: string;
}) {
  const heading = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape" && !document.querySelector("dialog[open]")) onClose();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [onClose]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: focusKey is what it follows
  useEffect(() => {
    const opener = document.activeElement;
    heading.current?.focus();
    return () => {
      // Only when the focus was in the drawer (or went with it): a click on another task's id
      // while the drawer is open keeps the focus there.
      const now = document.activeElement;
      const lost = !now || now === document.body || !now.isConnected;
      const inside = !!now?.closest(".drawer");
      if ((lost || inside) && opener instanceof HTMLElement && opener.isConnected) opener.focus();
    };
  }, [focusKey]);
  return (
    <aside className="drawer" aria-label={label}>
      <header className="drawer-head">
        <div className="drawer-title" ref={heading} tabIndex={-1}>
          {title}
        </div>
        <button type="button" className="icon-btn" onClick={onClose} aria-label="Close">
          <Icon name="close" />
        </button>
      </header>
      <div className="drawer-body">{children}</div>
    </aside>
  );
}
