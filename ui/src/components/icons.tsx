// The few line icons the console uses, inline SVG so nothing is fetched.
const PATHS: Record<string, string> = {
  runs: "M4 6h16M4 12h16M4 18h10",
  inbox: "M4 13l2-7h12l2 7M4 13v5h16v-5M4 13h5l1 2h4l1-2h5",
  clock: "M12 3a9 9 0 1 0 0 18a9 9 0 1 0 0-18M12 7v5l3 3",
  workflows: "M6 5a2 2 0 1 0 0 .01M18 12a2 2 0 1 0 0 .01M6 19a2 2 0 1 0 0 .01M8 5h4l4 7M8 19h4l4-7",
  plugins: "M9 3v4M15 3v4M7 7h10v5a5 5 0 0 1-10 0zM12 17v4",
  pause: "M9 5v14M15 5v14",
  play: "M7 5l12 7-12 7z",
  stop: "M6 6h12v12H6z",
  trash: "M5 7h14M10 11v6M14 11v6M7 7l1 13h8l1-13M9 7V4h6v3",
  grip: "M9 6h.01M15 6h.01M9 12h.01M15 12h.01M9 18h.01M15 18h.01",
  plus: "M12 5v14M5 12h14",
  retry: "M4 12a8 8 0 0 1 14-5l2 2M20 4v5h-5M20 12a8 8 0 0 1-14 5l-2-2M4 20v-5h5",
  move: "M5 12h14M13 6l6 6-6 6",
  docs: "M6 3h9l4 4v14H6zM14 3v5h5M9 13h7M9 17h7",
  close: "M6 6l12 12M18 6L6 18",
  reload: "M20 12a8 8 0 1 1-3-6.3M20 4v5h-5",
  menu: "M4 7h16M4 12h16M4 17h16",
  key: "M14 10a4 4 0 1 0-3.5 4L6 19v2h3v-2h2v-2h2l1.5-2.5A4 4 0 0 0 14 10z",
};

export type IconName = keyof typeof PATHS;

export function Icon({ name, size = 16 }: { name: string; size?: number }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={name === "grip" ? 3 : 1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      className="icon"
    >
      <path d={PATHS[name] ?? ""} />
    </svg>
  );
}
