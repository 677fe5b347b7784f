// The "English | 中文" switch keeps the reader's place: the link to the other
// language gets the #anchor of the URL, or else that of the innermost section
// the page's table of contents marks as being read (both sites share the
// labels), and the URL's ?query, so that the search page searches again.
document.addEventListener("click", (event) => {
  const link = event.target.closest("a.language-link, a.language-link-header");
  if (!link) return;
  const read = document.querySelectorAll(".toc-tree li.scroll-current > a");
  const innermost = read.length ? read[read.length - 1].hash : "";
  link.hash = window.location.hash || innermost;
  link.search = window.location.search;
});

// On a narrow screen furo puts the sidebar, and the switch with it, behind the
// menu button: the header gets the link to the other language too.
document.addEventListener("DOMContentLoaded", () => {
  const header = document.querySelector(".mobile-header .header-right");
  const link = document.querySelector(".language-switch a.language-link");
  if (!header || !link) return;
  const copy = link.cloneNode(true);
  copy.className = "language-link-header reference external";
  header.prepend(copy);
});
