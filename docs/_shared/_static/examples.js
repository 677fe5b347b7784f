// What the copy button of an example copies runs both ways: saved as a script,
// and pasted at the plain `python` prompt. sphinx-copybutton copies the code
// without its prompts and output; the prompt, unlike a script, ends a class
// or def at the first blank line and needs one before the next top-level
// statement. So in the copied text a blank line inside an indented block is
// dropped, and a blank line goes before each top-level statement that follows
// an indented block (not before else/elif/except/finally, which continue it).

const _indent = (line) => line.length - line.trimStart().length;
const _continuesBlock = /^(else|elif|except|finally)\b|^[)\]}]/;
const _tripleQuote = /"""|'''/g;

// The copied text, pasteable at the prompt and still the same script.
const pasteable = (text) => {
  const lines = text.split("\n");
  const kept = [];
  let inString = false;
  lines.forEach((line, index) => {
    if (!inString) {
      if (line.trim() === "") {
        const next = lines.slice(index + 1).find((later) => later.trim() !== "");
        if (next === undefined || _indent(next) === 0) kept.push("");
        return;
      }
      const previous = kept[kept.length - 1];
      if (_indent(line) === 0 && previous && _indent(previous) > 0
          && !_continuesBlock.test(line)) kept.push("");
    }
    kept.push(line);
    if ((line.match(_tripleQuote) || []).length % 2 === 1) inString = !inString;
  });
  return kept.join("\n");
};

// sphinx-copybutton hands ClipboardJS the function that makes the copied text;
// this wraps it (both load before the page is ready, when the buttons are made).
// window.exampleText(button) is that text, for the browser tests.
if (window.ClipboardJS) {
  const Clipboard = window.ClipboardJS;
  window.ClipboardJS = class extends Clipboard {
    constructor(selector, options) {
      const text = (button) => pasteable(options.text(button));
      window.exampleText = text;
      super(selector, {...options, text});
    }
  };
}
