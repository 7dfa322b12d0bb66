// The custom element of examples/showcase.ts (panel "viz", kind custom). The client loads this
// module from the manifest's asset URL, creates <showcase-viz>, and hands it what it needs as
// properties (docs/plugins.md): `scope` ({ workflow, run_id, task_id, node }) and `api`, a
// function (path) => Promise<JSON> that calls the server with the client's credentials.
// It draws the `score` task's readings as horizontal bars.

const STYLE = `
  :host { display: block; font: 13px system-ui, sans-serif; }
  .row { display: flex; align-items: center; gap: 8px; margin: 2px 0; }
  .label { width: 8em; overflow: hidden; text-overflow: ellipsis; }
  .bar { height: 10px; background: #4a7fd4; border-radius: 2px; }
  .empty { color: #888; }
`;

class ShowcaseViz extends HTMLElement {
  #scope = null;
  #api = null;

  constructor() {
    super();
    this.attachShadow({ mode: "open" });
  }

  set scope(value) {
    this.#scope = value;
    this.#load();
  }

  get scope() {
    return this.#scope;
  }

  set api(value) {
    this.#api = value;
    this.#load();
  }

  connectedCallback() {
    this.#load();
  }

  async #load() {
    const taskId = this.#scope?.task_id;
    if (!this.isConnected || !this.#api || taskId == null) return this.#draw([]);
    try {
      const task = await this.#api(`/api/tasks/${taskId}`);
      this.#draw(task?.payload ?? []);
    } catch (err) {
      this.#draw([], String(err));
    }
  }

  #draw(readings, problem) {
    const max = Math.max(1, ...readings.map((r) => r.value));
    const rows = readings.map(
      (r) =>
        `<div class="row"><span class="label">${escapeHtml(r.label)}</span>` +
        `<span class="bar" style="width:${(r.value / max) * 200}px"></span>${r.value}</div>`,
    );
    const empty = `<div class="empty">${escapeHtml(problem ?? "No readings.")}</div>`;
    this.shadowRoot.innerHTML = `<style>${STYLE}</style>${rows.join("") || empty}`;
  }
}

function escapeHtml(text) {
  return String(text).replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

if (!customElements.get("showcase-viz")) customElements.define("showcase-viz", ShowcaseViz);
