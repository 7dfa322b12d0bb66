// Removes event-handler attributes (on…=) from an HTML string before any DOM parses it.
// DOMPurify parses to sanitize, and Chromium checks the page's content security policy as soon
// as a parser sets an inline handler, even in an inert document (DOMParser, <template>): each
// `<img onerror=…>` in a log entry logged a CSP violation although nothing ran. This pass only
// keeps that noise out of the console; DOMPurify remains the sanitizer and the CSP the backstop,
// so a case it misses costs a console line, never a script.
//
// Tags are read as the HTML tokenizer reads them (WHATWG "tag open" to "attribute value"
// states): a start tag is `<` and a letter; attributes are separated by whitespace or `/`; a
// name runs to whitespace, `/`, `>` or `=`; a value is double-quoted, single-quoted or bare.

const TAG_OPEN = /<[a-zA-Z][^\t\n\f\r />]*/g;
const SPACE = "\\t\\n\\f\\r ";
/** One attribute (with what separates it from the previous one), or the tag's end. */
const ATTRIBUTE = new RegExp(
  `([${SPACE}/]*)(?:([^${SPACE}/>][^${SPACE}/=>]*)` +
    `(?:[${SPACE}]*=[${SPACE}]*(?:"[^"]*"?|'[^']*'?|[^${SPACE}>]*))?)?`,
  "y",
);

/** `html` with every attribute whose name starts with "on" left out of its start tags. */
export function stripEventHandlers(html: string): string {
  let out = "";
  let copied = 0;
  TAG_OPEN.lastIndex = 0;
  for (let open = TAG_OPEN.exec(html); open; open = TAG_OPEN.exec(html)) {
    let at = TAG_OPEN.lastIndex;
    for (;;) {
      ATTRIBUTE.lastIndex = at;
      const m = ATTRIBUTE.exec(html);
      // No attribute follows: the tag ends here (at `>` or the end of the text).
      if (!m || m[2] === undefined) break;
      if (/^on/i.test(m[2])) {
        out += `${html.slice(copied, at)}${m[1]}`;
        copied = ATTRIBUTE.lastIndex;
      }
      at = ATTRIBUTE.lastIndex;
    }
    TAG_OPEN.lastIndex = at;
  }
  return out + html.slice(copied);
}
