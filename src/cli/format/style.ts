// Terminal colours for status words and secondary text. A Style with colours off returns text
// unchanged, so formatting code never has to ask whether colours are on.

export interface Style {
  /** A run, task or node status word, coloured by what it means to an operator. */
  status(word: string): string;
  dim(text: string): string;
  bold(text: string): string;
  red(text: string): string;
  yellow(text: string): string;
  green(text: string): string;
}

const CODES = {
  red: 31,
  green: 32,
  yellow: 33,
  blue: 34,
  cyan: 36,
  dim: 2,
  bold: 1,
} as const;

type Colour = keyof typeof CODES;

const STATUS_COLOURS: Record<string, Colour> = {
  completed: "green",
  done: "green",
  running: "cyan",
  in_progress: "cyan",
  queued: "blue",
  ready: "blue",
  paused: "yellow",
  waiting: "yellow",
  failed: "red",
  dead_letter: "red",
  cancelled: "dim",
};

export function createStyle(colours: boolean): Style {
  const paint = (colour: Colour, text: string) =>
    colours && text !== "" ? `\x1b[${CODES[colour]}m${text}\x1b[0m` : text;
  return {
    status: (word) => {
      const colour = STATUS_COLOURS[word];
      return colour ? paint(colour, word) : word;
    },
    dim: (text) => paint("dim", text),
    bold: (text) => paint("bold", text),
    red: (text) => paint("red", text),
    yellow: (text) => paint("yellow", text),
    green: (text) => paint("green", text),
  };
}

/** Text without colour codes, to measure how wide it shows. */
export function visible(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching ANSI escapes is the point
  return text.replace(/\x1b\[[0-9;]*m/g, "");
}
