// The header: where the live connection stands and which server version answers, and on a
// narrow screen the button that opens the navigation menu (hidden at desktop width).
import { type RefObject, useSyncExternalStore } from "react";
import { get } from "../api/client.ts";
import { getToken, requireToken, setToken } from "../api/token.ts";
import type { Health, Me, RunCounts } from "../api/types.ts";
import { Icon } from "../components/icons.tsx";
import { connectionStatus, onStatus } from "../live/event-stream.ts";
import { useQuery } from "../live/query-cache.ts";
import { Link } from "../router.tsx";

const LABEL = {
  connecting: "Connecting…",
  live: "Live",
  reconnecting: "Reconnecting…",
  offline: "Offline",
} as const;

export function ConnectionPill() {
  const status = useSyncExternalStore(onStatus, connectionStatus);
  return (
    <span className={`conn conn-${status}`} data-connection={status} title="Event stream">
      <span className="dot" aria-hidden="true" />
      {LABEL[status]}
    </span>
  );
}

/** Slots leased per pool: the one number an operator watches while dispatching. */
function PoolLoad() {
  const health = useQuery("health", () => get<Health>("/api/health"));
  const pools = Object.entries(health.data?.pools ?? {});
  // Shared with the sidebar's badge (one read of the counts, refetched on run events).
  const counts = useQuery("runs-counts", () => get<RunCounts>("/api/runs/counts"));
  const waiting = counts.data?.waiting_on_people ?? 0;
  return (
    <div className="pool-load">
      {pools.map(([name, p]) => (
        <span
          key={name}
          className="pool"
          title={`Pool ${name}: ${p.in_flight} of ${p.capacity} slots leased`}
        >
          <span className="pool-name">{name}</span>
          <span className="pool-bar" aria-hidden="true">
            <span
              style={{ width: `${Math.min(100, (100 * p.in_flight) / Math.max(1, p.capacity))}%` }}
            />
          </span>
          <span className="num">
            {p.in_flight}/{p.capacity}
          </span>
        </span>
      ))}
      {health.data?.runs_running !== undefined && (
        <span className="muted">
          <span className="num">{health.data.runs_running}</span> running
        </span>
      )}
      {waiting > 0 && (
        <Link to="/inbox" className="header-waiting" data-testid="header-waiting">
          <span className="num">{waiting}</span> waiting on you
        </Link>
      )}
    </div>
  );
}

export function Header({
  menuButton,
  menuOpen,
  onMenu,
}: {
  menuButton: RefObject<HTMLButtonElement | null>;
  menuOpen: boolean;
  onMenu: () => void;
}) {
  const me = useQuery("me", () => get<Me>("/api/me"));
  const token = getToken();
  return (
    <header className="topbar">
      <div className="topbar-left">
        <button
          type="button"
          ref={menuButton}
          className="icon-btn menu-btn"
          aria-label="Menu"
          aria-controls="sidebar"
          aria-expanded={menuOpen}
          onClick={onMenu}
        >
          <Icon name="menu" />
        </button>
        <PoolLoad />
      </div>
      <div className="topbar-right">
        <ConnectionPill />
        {me.data?.auth === "token" && (
          <span className="chip" title="The server requires an operator token">
            <Icon name="key" size={13} /> token
            {token && (
              <button
                type="button"
                className="link-btn"
                onClick={() => {
                  setToken(null);
                  requireToken();
                }}
              >
                forget
              </button>
            )}
          </span>
        )}
        <span className="version" data-version={me.data?.version ?? ""}>
          {me.data ? `v${me.data.version}` : "…"}
        </span>
      </div>
    </header>
  );
}
