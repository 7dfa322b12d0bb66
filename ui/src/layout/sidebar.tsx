// Left navigation. Counts beside Runs and Inbox come from the same cached queries the pages
// use, so they move with the live stream. On a narrow screen it is a menu over the page: `open`
// shows it, Escape or a click beside it closes it.
import { useEffect, useRef } from "react";
import { get } from "../api/client.ts";
import type { PluginManifestEntry, RequestView, RunCounts } from "../api/types.ts";
import { Icon } from "../components/icons.tsx";
import { useQuery } from "../live/query-cache.ts";
import { Link } from "../router.tsx";

const ACTIVE = new Set(["queued", "running", "paused"]);

function NavItem(props: {
  to: string;
  icon: string;
  label: string;
  path: string;
  count?: number;
  alert?: boolean;
}) {
  const active = props.path === props.to || props.path.startsWith(`${props.to}/`);
  return (
    <Link
      to={props.to}
      className={active ? "nav-item nav-active" : "nav-item"}
      aria-current={active ? "page" : undefined}
    >
      <Icon name={props.icon} />
      <span>{props.label}</span>
      {props.count ? (
        <span className={props.alert ? "nav-count nav-count-alert" : "nav-count"}>
          {props.count}
        </span>
      ) : null}
    </Link>
  );
}

export function Sidebar({
  path,
  open,
  onClose,
}: {
  path: string;
  open: boolean;
  onClose: () => void;
}) {
  const nav = useRef<HTMLElement>(null);
  useEffect(() => {
    if (!open) return;
    // The menu takes the focus, so the keyboard walks its links next.
    nav.current?.querySelector<HTMLElement>(".nav-active, .nav-item")?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape" && !document.querySelector("dialog[open]")) onClose();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [open, onClose]);
  // The counts, not the list: a badge must not cost a 10,000-row read on every event.
  const counts = useQuery("runs-counts", () => get<RunCounts>("/api/runs/counts"));
  const inbox = useQuery("inbox", () => get<RequestView[]>("/api/requests?pending=true"));
  const plugins = useQuery("plugins", () => get<PluginManifestEntry[]>("/api/plugins"));
  const byStatus = (counts.data?.by_status ?? {}) as Record<string, number>;
  const active = [...ACTIVE].reduce((n, s) => n + (byStatus[s] ?? 0), 0);
  const hasGlobal = (plugins.data ?? []).some((e) => e.panels.some((p) => p.slot === "global"));
  return (
    <>
      {open && <div className="menu-scrim" aria-hidden="true" onClick={onClose} />}
      <nav className="sidebar" id="sidebar" aria-label="Main" ref={nav}>
        <Link to="/runs" className="brand">
          <img src="/favicon.svg" alt="" width={26} height={26} />
          <span>Yardmaster</span>
        </Link>
        <div className="nav-group">
          <NavItem to="/runs" icon="runs" label="Runs" path={path} count={active} />
          <NavItem
            to="/inbox"
            icon="inbox"
            label="Inbox"
            path={path}
            count={inbox.data?.length}
            alert
          />
          <NavItem to="/workflows" icon="workflows" label="Workflows" path={path} />
          <NavItem to="/schedules" icon="clock" label="Schedules" path={path} />
          {hasGlobal && <NavItem to="/panels" icon="plugins" label="Panels" path={path} />}
        </div>
        <div className="sidebar-foot">
          <a href="/docs" target="_blank" rel="noreferrer" className="nav-item nav-small">
            <Icon name="docs" />
            <span>API docs</span>
          </a>
        </div>
      </nav>
    </>
  );
}
