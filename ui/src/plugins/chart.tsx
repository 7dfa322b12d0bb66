// A small inline SVG chart for `chart` panels ({series, kind}); no chart library needed.
// series: numbers, [{x, y}] / [{label, value}] points, or [{name, points|data|values}] lines.
// A bar chart names its categories under the bars (shortened to fit) and each bar carries its
// full label and value as a <title>, which the browser shows on hover.

interface Point {
  x: number;
  y: number;
  label?: string;
}
interface Series {
  name: string;
  points: Point[];
}

const COLORS = ["#2563eb", "#16a34a", "#d97706", "#9333ea", "#dc2626", "#0891b2"];
const W = 320;
const H = 150;
const PAD = { l: 34, r: 8, t: 8, b: 22 };
/** Roughly the width of a 9px label character, in the viewBox's units. */
const CHAR = 5.2;
/** The least room a category label needs; with narrower bars only every n-th one is named. */
const LABEL_ROOM = 30;

/** `text` cut to `room` units, with an ellipsis when it had to be cut. */
export function fitLabel(text: string, room: number): string {
  const max = Math.max(1, Math.floor(room / CHAR));
  return text.length <= max ? text : `${text.slice(0, Math.max(1, max - 1))}…`;
}

const valueText = (y: number) => (Number.isInteger(y) ? String(y) : y.toFixed(2));

function toPoint(v: unknown, i: number): Point | null {
  if (typeof v === "number") return { x: i, y: v };
  if (Array.isArray(v) && typeof v[1] === "number")
    return { x: typeof v[0] === "number" ? v[0] : i, y: v[1], label: String(v[0]) };
  if (v && typeof v === "object") {
    const o = v as Record<string, unknown>;
    const y = typeof o.y === "number" ? o.y : typeof o.value === "number" ? o.value : null;
    if (y === null) return null;
    const label = o.label ?? o.x;
    return {
      x: typeof o.x === "number" ? o.x : i,
      y,
      label: label === undefined ? undefined : String(label),
    };
  }
  return null;
}

function points(list: unknown[]): Point[] {
  return list.map(toPoint).filter((p): p is Point => p !== null);
}

export function normalizeSeries(series: unknown[]): Series[] {
  const nested = series.every(
    (s) =>
      s &&
      typeof s === "object" &&
      !Array.isArray(s) &&
      ("points" in s || "data" in s || "values" in s),
  );
  if (!nested) return [{ name: "", points: points(series) }];
  return series.map((s, i) => {
    const o = s as Record<string, unknown>;
    const list = (o.points ?? o.data ?? o.values) as unknown;
    return {
      name: typeof o.name === "string" ? o.name : `series ${i + 1}`,
      points: Array.isArray(list) ? points(list) : [],
    };
  });
}

export function Chart({ series: raw, kind }: { series: unknown[]; kind: string }) {
  const series = normalizeSeries(raw).filter((s) => s.points.length);
  const all = series.flatMap((s) => s.points);
  if (!all.length) return <div className="muted small">No data points.</div>;
  const xs = all.map((p) => p.x);
  const ys = all.map((p) => p.y);
  const [x0, x1] = [Math.min(...xs), Math.max(...xs)];
  const [y0, y1] = [Math.min(0, ...ys), Math.max(...ys, 0) || 1];
  const sx = (x: number) => PAD.l + ((x - x0) / Math.max(1e-9, x1 - x0 || 1)) * (W - PAD.l - PAD.r);
  const sy = (y: number) => H - PAD.b - ((y - y0) / Math.max(1e-9, y1 - y0)) * (H - PAD.t - PAD.b);
  const ticks = [y0, (y0 + y1) / 2, y1];
  const bar = kind === "bar";
  const slot = (W - PAD.l - PAD.r) / Math.max(1, series[0].points.length);
  const every = Math.ceil(LABEL_ROOM / slot);
  const categories = bar ? series[0].points.map((p) => p.label) : [];
  return (
    <figure className="chart" data-chart-kind={kind}>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`${kind} chart`}>
        {ticks.map((t) => (
          <g key={t}>
            <line x1={PAD.l} x2={W - PAD.r} y1={sy(t)} y2={sy(t)} className="chart-grid" />
            <text x={PAD.l - 4} y={sy(t) + 3} className="chart-tick" textAnchor="end">
              {Number.isInteger(t) ? t : t.toFixed(1)}
            </text>
          </g>
        ))}
        {series.map((s, si) => {
          const color = COLORS[si % COLORS.length];
          if (bar) {
            const w = (slot * 0.7) / series.length;
            return s.points.map((p, i) => {
              const named = [series.length > 1 ? s.name : "", p.label ?? categories[i] ?? ""]
                .filter(Boolean)
                .join(" · ");
              return (
                <rect
                  key={`${s.name}-${p.label ?? p.x}`}
                  x={PAD.l + i * slot + slot * 0.15 + si * w}
                  y={sy(Math.max(0, p.y))}
                  width={w}
                  height={Math.abs(sy(p.y) - sy(0))}
                  fill={color}
                  rx={2}
                >
                  <title>{named ? `${named}: ${valueText(p.y)}` : valueText(p.y)}</title>
                </rect>
              );
            });
          }
          const d = s.points
            .map((p, i) => `${i ? "L" : "M"}${sx(p.x).toFixed(1)},${sy(p.y).toFixed(1)}`)
            .join(" ");
          return (
            <g key={s.name || si}>
              {kind === "area" && (
                <path
                  d={`${d} L${sx(s.points.at(-1)!.x)},${sy(0)} L${sx(s.points[0].x)},${sy(0)} Z`}
                  fill={color}
                  opacity={0.12}
                />
              )}
              <path d={d} fill="none" stroke={color} strokeWidth={1.8} />
            </g>
          );
        })}
        {categories.map((label, i) =>
          label !== undefined && i % every === 0 ? (
            <text
              // biome-ignore lint/suspicious/noArrayIndexKey: a category is its position
              key={i}
              x={PAD.l + i * slot + slot / 2}
              y={H - PAD.b + 13}
              className="chart-label"
              textAnchor="middle"
            >
              {fitLabel(label, slot * every - 4)}
            </text>
          ) : null,
        )}
      </svg>
      {series.length > 1 && (
        <figcaption className="chart-legend">
          {series.map((s, i) => (
            <span key={s.name}>
              <span className="swatch" style={{ background: COLORS[i % COLORS.length] }} />
              {s.name}
            </span>
          ))}
        </figcaption>
      )}
    </figure>
  );
}
