// The pass that keeps inline event handlers away from any DOM parser (ui/src/components/
// strip-handlers.ts): it must read tags as the browser's tokenizer does, dropping exactly the
// on…= attributes and leaving everything else as it was.
import { describe, expect, it } from "vitest";
import { stripEventHandlers } from "../../ui/src/components/strip-handlers.ts";

describe("stripEventHandlers", () => {
  it("drops on…= attributes, quoted, bare or without a value, in any case", () => {
    expect(stripEventHandlers('<img src="x" onerror="go()"> <a href="#" ONCLICK=go()>a</a>')).toBe(
      '<img src="x" > <a href="#" >a</a>',
    );
    expect(stripEventHandlers("<svg><g onload='1' id=g></g></svg>")).toBe(
      "<svg><g  id=g></g></svg>",
    );
    expect(stripEventHandlers("<img src=x onerror")).toBe("<img src=x ");
  });

  it("leaves values, other attributes and text alone", () => {
    const kept = [
      '<b title="a > onload=2" data-on="1">t</b>',
      "<b title='x onclick='>t</b>",
      "<p>onclick=1 is text</p>",
      // A bare value runs to whitespace: this src is "x/onerror=go()//", no handler.
      "<img/src=x/onerror=go()//>",
      "&lt;img onerror=1&gt;",
    ];
    for (const html of kept) expect(stripEventHandlers(html)).toBe(html);
  });
});
