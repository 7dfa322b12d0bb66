// Tabs with the keyboard behaviour people expect: arrows move between tabs, Home/End jump.
import type { KeyboardEvent, ReactNode } from "react";

export interface TabSpec {
  id: string;
  label: ReactNode;
}

export function Tabs({
  tabs,
  active,
  onChange,
  label,
}: {
  tabs: TabSpec[];
  active: string;
  onChange: (id: string) => void;
  label: string;
}) {
  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const i = tabs.findIndex((t) => t.id === active);
    let next = i;
    if (e.key === "ArrowRight") next = (i + 1) % tabs.length;
    else if (e.key === "ArrowLeft") next = (i - 1 + tabs.length) % tabs.length;
    else if (e.key === "Home") next = 0;
    else if (e.key === "End") next = tabs.length - 1;
    else return;
    e.preventDefault();
    onChange(tabs[next].id);
    const el = e.currentTarget.querySelector<HTMLButtonElement>(`[data-tab="${tabs[next].id}"]`);
    el?.focus();
  };
  return (
    <div className="tabs" role="tablist" aria-label={label} onKeyDown={onKey}>
      {tabs.map((t) => (
        <button
          key={t.id}
          type="button"
          role="tab"
          data-tab={t.id}
          aria-selected={t.id === active}
          tabIndex={t.id === active ? 0 : -1}
          className={t.id === active ? "tab tab-active" : "tab"}
          onClick={() => onChange(t.id)}
        >
          {t.label}
        </button>
      ))}
    </div>
  );
}
