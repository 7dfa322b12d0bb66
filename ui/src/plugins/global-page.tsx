// Panels of the global slot, from every workflow's plugin: cards in a grid, panes full width.
import { PanelList, usePanels } from "./panels.tsx";

export function GlobalPanelsPage() {
  const cards = usePanels(null, "global", "card");
  const panes = usePanels(null, "global", "pane");
  return (
    <div className="page">
      <div className="page-head">
        <div>
          <h1>Panels</h1>
          <p className="muted">Views the registered workflows' plugins add to the whole console.</p>
        </div>
      </div>
      {cards.length === 0 && panes.length === 0 && (
        <div className="card empty muted">No global panels are registered.</div>
      )}
      <div className="panel-grid">
        <PanelList panels={cards} scope={{}} />
      </div>
      {panes.map((p) => (
        <section key={`${p.workflow}/${p.panel.name}`} className="card">
          <h3 className="card-title">
            {p.panel.name} <span className="chip chip-quiet">{p.workflow}</span>
          </h3>
          <PanelList panels={[p]} scope={{}} bare />
        </section>
      ))}
    </div>
  );
}
