// A side drawer over the right of the page (the page stays usable). Escape closes it.
import { type ReactNode, useEffect } from "react";
import { Icon } from "../components/icons.tsx";

export function Drawer({
  title,
  children,
  onClose,
  label,
}: {
  title: ReactNode;
  children: ReactNode;
  onClose: () => void;
  label: string;
}) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape" && !document.querySelector("dialog[open]")) onClose();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [onClose]);
  return (
    <aside className="drawer" aria-label={label}>
      <header className="drawer-head">
        <div className="drawer-title">{title}</div>
        <button type="button" className="icon-btn" onClick={onClose} aria-label="Close">
          <Icon name="close" />
        </button>
      </header>
      <div className="drawer-body">{children}</div>
    </aside>
  );
}
