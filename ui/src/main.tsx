// Entry: styles, the one event stream, cache invalidation from it, then the shell.
import "@fontsource-variable/inter/wght.css";
import "@xyflow/react/dist/style.css";
import "./styles/base.css";
import "./styles/layout.css";
import "./styles/components.css";
import "./styles/run.css";
import "./styles/timeline.css";
import "./styles/dark.css";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app.tsx";
import { startEventStream } from "./live/event-stream.ts";
import { installInvalidation } from "./live/invalidation.ts";

installInvalidation();
startEventStream();

const root = document.getElementById("root");
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
