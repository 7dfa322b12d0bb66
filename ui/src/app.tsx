// The shell: left navigation, a header with the connection and the server version, and the
// page for the current path. A token prompt covers everything while the server wants one. On a
// narrow screen the navigation is a menu the header's button opens (layout.css says how narrow).
import { useCallback, useEffect, useRef, useState } from "react";
import { AuthGate } from "./auth/token-prompt.tsx";
import { ConfirmHost } from "./components/dialog.tsx";
import { ToastHost } from "./components/toast.tsx";
import { InboxPage } from "./inbox/inbox-page.tsx";
import { Header } from "./layout/header.tsx";
import { Sidebar } from "./layout/sidebar.tsx";
import { useTabTitle } from "./layout/title.ts";
import { GlobalPanelsPage } from "./plugins/global-page.tsx";
import { match, navigate, useRoute } from "./router.tsx";
import { RunPage } from "./run/run-page.tsx";
import { RunsPage } from "./runs/runs-page.tsx";
import { SchedulesPage } from "./schedules/schedules-page.tsx";
import { WorkflowsPage } from "./workflows/workflows-page.tsx";

// Each first path segment here must be in CONSOLE_ROUTES (src/http/ui.ts) to survive a reload.
function Page({ path }: { path: string }) {
  const run = match("/runs/:id", path);
  if (run) return <RunPage key={run.id} runId={run.id} />;
  if (path === "/runs") return <RunsPage />;
  if (path === "/inbox") return <InboxPage />;
  const wf = match("/workflows/:name", path);
  if (wf) return <WorkflowsPage selected={wf.name} />;
  if (path === "/workflows") return <WorkflowsPage selected={null} />;
  if (path === "/panels") return <GlobalPanelsPage />;
  if (path === "/schedules") return <SchedulesPage />;
  return (
    <div className="page">
      <div className="empty">
        <h2>Nothing here</h2>
        <p className="muted">
          No page at <code>{path}</code>.
        </p>
      </div>
    </div>
  );
}

export function App() {
  const { path } = useRoute();
  useTabTitle(path);
  const [menuOpen, setMenuOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (path === "/" || path === "") navigate("/runs", { replace: true });
  }, [path]);
  // Following a link folds the menu: the page it opened is what the operator wants to see.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every change of page
  useEffect(() => setMenuOpen(false), [path]);
  const closeMenu = useCallback(() => {
    setMenuOpen(false);
    menuButton.current?.focus();
  }, []);
  return (
    <div className={menuOpen ? "shell menu-open" : "shell"}>
      <Sidebar path={path} open={menuOpen} onClose={closeMenu} />
      <div className="main">
        <Header
          menuButton={menuButton}
          menuOpen={menuOpen}
          onMenu={() => setMenuOpen((open) => !open)}
        />
        <main className="content" id="content">
          <AuthGate>
            <Page path={path} />
          </AuthGate>
        </main>
      </div>
      <ConfirmHost />
      <ToastHost />
    </div>
  );
}
